/**
 * The environment files a step writes: `GITHUB_ENV`, `GITHUB_OUTPUT` and `GITHUB_STATE` hold
 * `name=value` lines and `name<<DELIMITER` blocks ending at a line that is exactly the delimiter;
 * `GITHUB_PATH` holds one directory a line. Parsed as the runner parses them, with its messages.
 *
 * Lines end at LF. On Windows a CRLF also ends a line; elsewhere the CR stays part of the line,
 * as in the runner (so a CRLF file's values keep their CR there, and its heredoc delimiter line
 * `EOF\r` must be closed by `EOF\r`, which a CRLF file does).
 */
import { unableToProcessFileCommandMessage } from './messages.js';

export class FileCommandError extends Error {
  override readonly name = 'FileCommandError';
  /** The runner's first error line: `Unable to process file command '<label>' successfully.` */
  readonly headline: string;

  constructor(
    readonly fileLabel: string,
    message: string,
  ) {
    super(message);
    this.headline = unableToProcessFileCommandMessage(fileLabel);
  }
}

export interface KeyValuePair {
  readonly name: string;
  readonly value: string;
}

export interface FileCommandOptions {
  /** Whose line endings apply; default the current process's platform. */
  readonly platform?: NodeJS.Platform;
}

interface Line {
  readonly text: string;
  /** The line ending consumed, or undefined for a last line without one. */
  readonly newline: '\n' | '\r\n' | undefined;
  readonly next: number;
}

function readLine(text: string, index: number, windows: boolean): Line | undefined {
  if (index >= text.length) return undefined;
  const lf = text.indexOf('\n', index);
  if (lf < 0) return { text: text.slice(index), newline: undefined, next: text.length };
  if (windows && lf > index && text[lf - 1] === '\r') return { text: text.slice(index, lf - 1), newline: '\r\n', next: lf + 1 };
  return { text: text.slice(index, lf), newline: '\n', next: lf + 1 };
}

/**
 * `GITHUB_ENV` / `GITHUB_OUTPUT` / `GITHUB_STATE`. `fileLabel` names the file in errors (the
 * runner uses the context name: `env`, `output`, `state`). Pairs come in file order; a later pair
 * with the same name wins when applied.
 */
export function parseKeyValueFile(content: string, fileLabel: string, options: FileCommandOptions = {}): KeyValuePair[] {
  const windows = (options.platform ?? process.platform) === 'win32';
  const text = content.startsWith('\uFEFF') ? content.slice(1) : content;
  const fail = (message: string): never => {
    throw new FileCommandError(fileLabel, message);
  };
  const pairs: KeyValuePair[] = [];
  let line = readLine(text, 0, windows);
  while (line) {
    const current = line.text;
    if (current === '') {
      line = readLine(text, line.next, windows);
      continue;
    }
    const equals = current.indexOf('=');
    const heredoc = current.indexOf('<<');
    let next = line.next;
    if (equals >= 0 && (heredoc < 0 || equals < heredoc)) {
      const name = current.slice(0, equals);
      if (name === '') fail(`Invalid format '${current}'. Name must not be empty`);
      pairs.push({ name, value: current.slice(equals + 1) });
    } else if (heredoc >= 0 && (equals < 0 || heredoc < equals)) {
      const name = current.slice(0, heredoc);
      const delimiter = current.slice(heredoc + 2);
      if (name === '' || delimiter === '') {
        fail(`Invalid format '${current}'. Name must not be empty and delimiter must not be empty`);
      }
      const start = next;
      let end = next;
      let valueLine = readLine(text, next, windows);
      while (valueLine?.text !== delimiter) {
        if (valueLine === undefined) return fail(`Invalid value. Matching delimiter not found '${delimiter}'`);
        if (valueLine.newline === undefined) return fail('Invalid value. EOF marker missing new line.');
        end = valueLine.next - valueLine.newline.length;
        valueLine = readLine(text, valueLine.next, windows);
      }
      next = valueLine.next;
      pairs.push({ name, value: end > start ? text.slice(start, end) : '' });
    } else {
      fail(`Invalid format '${current}'`);
    }
    line = readLine(text, next, windows);
  }
  return pairs;
}

/**
 * `GITHUB_PATH`: one directory a line (LF, CRLF or CR), empty lines skipped, in file order. The
 * worker prepends each to the job's PATH list, moving an existing entry to the front.
 */
export function parsePathFile(content: string): string[] {
  const text = content.startsWith('\uFEFF') ? content.slice(1) : content;
  return text.split(/\r\n|\n|\r/).filter((line) => line !== '');
}
