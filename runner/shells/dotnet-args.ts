/**
 * The two .NET behaviours a shell's command line goes through in the runner: `string.Format` puts
 * the script path into the argument template, and on Linux and macOS .NET's Process splits the
 * resulting string into argv (Windows passes the string to CreateProcess as is).
 */

export class ArgumentFormatError extends Error {
  override readonly name = 'ArgumentFormatError';
}

/**
 * `string.Format(format, value)` for one argument: `{0}` (with optional `,alignment` and
 * `:format`) is the value, `{{` and `}}` are braces; anything else is .NET's FormatException.
 */
export function formatArguments(format: string, value: string): string {
  let out = '';
  for (let i = 0; i < format.length; i++) {
    const c = format[i];
    if (c === '}') {
      if (format[i + 1] !== '}') throw new ArgumentFormatError('Input string was not in a correct format.');
      out += '}';
      i++;
      continue;
    }
    if (c !== '{') {
      out += c;
      continue;
    }
    if (format[i + 1] === '{') {
      out += '{';
      i++;
      continue;
    }
    const close = format.indexOf('}', i);
    const item = close < 0 ? undefined : /^(\d+)\s*(?:,\s*(-?\d+)\s*)?(?::([^{}]*))?$/.exec(format.slice(i + 1, close));
    if (!item) throw new ArgumentFormatError('Input string was not in a correct format.');
    if (Number(item[1]) !== 0) {
      throw new ArgumentFormatError('Index (zero based) must be greater than or equal to zero and less than the size of the argument list.');
    }
    const width = item[2] === undefined ? 0 : Number(item[2]);
    out += width < 0 ? value.padEnd(-width) : value.padStart(width);
    i = close;
  }
  return out;
}

/**
 * .NET's argv split on Unix: white space (space, tab) separates arguments outside double quotes;
 * `""` inside quotes is a quote; backslashes are literal unless they precede a quote, where each
 * pair is one backslash and an odd one escapes the quote.
 */
export function splitArguments(text: string): string[] {
  const result: string[] = [];
  let i = 0;
  while (i < text.length) {
    while (i < text.length && (text[i] === ' ' || text[i] === '\t')) i++;
    if (i >= text.length) break;
    let current = '';
    let quoted = false;
    while (i < text.length) {
      let backslashes = 0;
      while (i < text.length && text[i] === '\\') {
        backslashes++;
        i++;
      }
      if (backslashes > 0) {
        if (i >= text.length || text[i] !== '"') {
          current += '\\'.repeat(backslashes);
        } else {
          current += '\\'.repeat(Math.floor(backslashes / 2));
          if (backslashes % 2 !== 0) {
            current += '"';
            i++;
          }
        }
        continue;
      }
      const c = text[i]!;
      if (c === '"') {
        if (quoted && text[i + 1] === '"') {
          current += '"';
          i++;
        } else {
          quoted = !quoted;
        }
        i++;
        continue;
      }
      if ((c === ' ' || c === '\t') && !quoted) break;
      current += c;
      i++;
    }
    result.push(current);
  }
  return result;
}
