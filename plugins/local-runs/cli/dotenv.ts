import { InputError } from '../../../core/kernel/cli/index.js';

/** One `NAME=value` of a dotenv file, with the line it starts on (for messages). */
export interface DotenvEntry {
  readonly name: string;
  readonly value: string;
  readonly line: number;
}

/**
 * The entries of a dotenv file (`--secret-file`, `--var-file`, `--input-file`), in file order (a
 * name given twice: both, the caller keeps the last). What is understood, as in act's `.secrets`:
 * `NAME=value` and `export NAME=value`; blank lines and `#` comments, also after an unquoted
 * value (` # ...`); spaces around `=`; `'single'` quotes taken literally; `"double"` quotes with
 * `\n`, `\r`, `\t`, `\"` and `\\` escapes; either quote may span lines (a multi-line value).
 * No `$VAR` expansion. A problem is an InputError naming `source` and the line, never the
 * line's text (it may hold a secret).
 */
export function parseDotenv(text: string, source: string): DotenvEntry[] {
  const entries: DotenvEntry[] = [];
  const input = text.replace(/^\uFEFF/, '').replace(/\r\n?/g, '\n');
  let at = 0;
  let line = 1;
  const fail = (where: number, problem: string): never => {
    throw new InputError(`${source} line ${where}: ${problem}`, { code: 'invalid_values_file' });
  };
  while (at < input.length) {
    const end = input.indexOf('\n', at) === -1 ? input.length : input.indexOf('\n', at);
    const start = line;
    const raw = input.slice(at, end);
    const trimmed = raw.trim();
    if (trimmed === '' || trimmed.startsWith('#')) {
      at = end + 1;
      line += 1;
      continue;
    }
    const body = trimmed.replace(/^export\s+/, '');
    const equals = body.indexOf('=');
    if (equals === -1) fail(start, 'expected NAME=value');
    const name = body.slice(0, equals).trim();
    if (name === '') fail(start, 'a value without a name (expected NAME=value)');
    // The value from just after `=`, in the whole text (a quoted one may run over lines).
    const afterEquals = at + raw.indexOf(body) + equals + 1;
    let cursor = afterEquals;
    while (input[cursor] === ' ' || input[cursor] === '\t') cursor += 1;
    const quote = input[cursor];
    if (quote === '"' || quote === "'") {
      const { value, close } = quote === '"' ? doubleQuoted(input, cursor + 1) : singleQuoted(input, cursor + 1);
      if (close === -1) fail(start, `the value of ${name} opens a ${quote} quote that is never closed`);
      line += countNewlines(input, at, close);
      const lineEnd = input.indexOf('\n', close) === -1 ? input.length : input.indexOf('\n', close);
      const after = input.slice(close + 1, lineEnd).trim();
      if (after !== '' && !after.startsWith('#')) fail(line, `unexpected text after the closing ${quote} of ${name}'s value (quote the whole value)`);
      entries.push({ name, value, line: start });
      at = lineEnd + 1;
      line += 1;
      continue;
    }
    // A `#` after white space starts a comment (`KEY= # none` is empty); `KEY=a#b` keeps it.
    const rest = input.slice(afterEquals, end);
    const comment = rest.search(/\s#/);
    entries.push({ name, value: (comment === -1 ? rest : rest.slice(0, comment)).trim(), line: start });
    at = end + 1;
    line += 1;
  }
  return entries;
}

const ESCAPES: Readonly<Record<string, string>> = { n: '\n', r: '\r', t: '\t', '"': '"', '\\': '\\' };

/** From just after the opening `"`: the value with its escapes applied, and the closing quote's index (-1: none). */
function doubleQuoted(input: string, from: number): { value: string; close: number } {
  let value = '';
  for (let i = from; i < input.length; i++) {
    const char = input[i] ?? '';
    if (char === '"') return { value, close: i };
    if (char === '\\' && i + 1 < input.length) {
      const next = input[i + 1] ?? '';
      value += ESCAPES[next] ?? `\\${next}`;
      i += 1;
      continue;
    }
    value += char;
  }
  return { value, close: -1 };
}

function singleQuoted(input: string, from: number): { value: string; close: number } {
  const close = input.indexOf("'", from);
  return { value: close === -1 ? '' : input.slice(from, close), close };
}

function countNewlines(text: string, from: number, to: number): number {
  let count = 0;
  for (let i = from; i < to; i++) if (text[i] === '\n') count += 1;
  return count;
}
