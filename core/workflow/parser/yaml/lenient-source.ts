/**
 * Fix "yaml-lenient-quoted-continuation": GitHub's YAML reader accepts a quoted scalar whose
 * continuation lines are indented less than the spec requires:
 *
 *       - "hello
 *       world"          → "hello world"
 *
 * The `yaml` package reports a missing closing quote instead. Continuation lines of a quoted
 * scalar are folded and their leading blanks dropped, so indenting them further does not change
 * the value; we do that to the source and parse again. Only lines inside the unterminated quoted
 * scalar are touched, and only after the strict parse failed on exactly this.
 */

/** The source with the quoted scalar the error points at re-indented, or undefined if not found. */
export function reindentQuotedContinuation(source: string, errorOffset: number, quote: '"' | "'"): string | undefined {
  const lineStart = source.lastIndexOf('\n', errorOffset - 1) + 1;
  const lineEndIndex = source.indexOf('\n', lineStart);
  if (lineEndIndex === -1) return undefined;
  const firstLine = source.slice(lineStart, lineEndIndex);
  const opening = unterminatedQuote(firstLine, quote);
  if (opening === undefined) return undefined;

  const indent = ' '.repeat(opening + 1);
  const lines = source.slice(lineEndIndex + 1).split('\n');
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] ?? '';
    lines[i] = indent + line.trimStart();
    if (closingIndex(line, 0, quote) !== undefined) {
      return `${source.slice(0, lineEndIndex + 1)}${lines.join('\n')}`;
    }
  }
  return undefined;
}

/** Column of the first quote on the line that is not closed on that line. */
function unterminatedQuote(line: string, quote: string): number | undefined {
  for (let i = 0; i < line.length; i++) {
    if (line[i] !== quote) continue;
    const close = closingIndex(line, i + 1, quote);
    if (close === undefined) return i;
    i = close;
  }
  return undefined;
}

/** Index of the quote that closes a scalar opened before `from`, honouring `\"` and `''`. */
function closingIndex(text: string, from: number, quote: string): number | undefined {
  for (let i = from; i < text.length; i++) {
    const c = text[i];
    if (quote === '"' && c === '\\') {
      i++;
    } else if (c === quote) {
      if (quote === "'" && text[i + 1] === "'") i++;
      else return i;
    }
  }
  return undefined;
}
