import type { Readable } from 'node:stream';

/** Calls `onLine` for every line of a stream (and for a last unterminated one at its end). */
export function forwardLines(stream: Readable | null, onLine: (line: string) => void): void {
  if (stream === null) return;
  let pending = '';
  stream.setEncoding('utf8');
  stream.on('data', (chunk: string) => {
    pending += chunk;
    let newline = pending.indexOf('\n');
    while (newline >= 0) {
      onLine(pending.slice(0, newline).replace(/\r$/, ''));
      pending = pending.slice(newline + 1);
      newline = pending.indexOf('\n');
    }
  });
  stream.on('end', () => {
    if (pending !== '') onLine(pending);
    pending = '';
  });
}
