import type { Readable } from 'node:stream';
import { InputError } from '../../core/kernel/index.js';

/**
 * The first line of `body` (without its newline), and `body` itself left at the byte after it:
 * `POST /snapshots/pack` sends a JSON line saying what the pack completes, then the pack, in one
 * request (a second round trip would cost a trivial `svc run` more than the line does). Reads no
 * further than the line's chunk; a line longer than `maxBytes` is refused before it is whole.
 */
export function readHeaderLine(body: Readable, maxBytes: number): Promise<{ readonly line: Buffer; readonly rest: Readable }> {
  return new Promise((resolve, reject) => {
    const parts: Buffer[] = [];
    let length = 0;
    const stop = () => {
      body.off('data', onData);
      body.off('end', onEnd);
      body.off('error', onError);
    };
    const onData = (chunk: Buffer) => {
      const newline = chunk.indexOf(0x0a);
      if (newline === -1) {
        parts.push(chunk);
        length += chunk.length;
        if (length > maxBytes) {
          stop();
          body.pause();
          reject(new InputError(`the pack's header line is longer than ${maxBytes} bytes; send one line of JSON, a newline, then the pack`, { code: 'invalid_request' }));
        }
        return;
      }
      stop();
      body.pause();
      parts.push(chunk.subarray(0, newline));
      const after = chunk.subarray(newline + 1);
      if (after.length > 0) body.unshift(after);
      resolve({ line: Buffer.concat(parts), rest: body });
    };
    const onEnd = () => {
      stop();
      reject(new InputError('the body ended before its header line did: send one line of JSON, a newline, then the pack', { code: 'invalid_request' }));
    };
    const onError = (error: Error) => {
      stop();
      reject(error);
    };
    body.on('data', onData);
    body.once('end', onEnd);
    body.once('error', onError);
  });
}
