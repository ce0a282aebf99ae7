import { Transform, type Readable } from 'node:stream';
import { InputError, SvcError } from '../../core/kernel/index.js';

/** An upload seen through a byte limit, and what went wrong with it, if anything did. */
export interface LimitedUpload {
  /** The bytes of the upload, ending with it; errors once the limit is passed or the client goes. */
  readonly stream: Readable;
  /** Why the upload failed on our side of the store, when it did (over the limit, cut off). */
  failure(): SvcError | undefined;
}

/** What was too large: a working tree's archive, or a history's pack. */
export type UploadKind = 'archive' | 'pack';

export function tooLarge(maxBytes: number, kind: UploadKind = 'archive'): SvcError {
  const hint = kind === 'archive' ? 'leave build output and dependencies out (.gitignore)' : 'a first upload sends the whole history: raise the limit, or run from a shallow clone';
  return new SvcError(
    `the snapshot ${kind} is larger than ${maxBytes} bytes, the most this server accepts (SVC_SNAPSHOT_MAX_BYTES); ${hint}`,
    413,
    'body_too_large',
    { details: { maxBytes } },
  );
}

/**
 * Counts the request's bytes on their way to the store and fails the stream past `maxBytes`, so
 * nothing is buffered and a client that sends more than it said stops at the limit. The request
 * itself is only piped, never destroyed: the error answer still needs its socket. Which failure
 * happened is kept here, because the store may report it in its own words (a cut archive).
 */
export function limitUpload(request: Readable, maxBytes: number, kind: UploadKind = 'archive'): LimitedUpload {
  let seen = 0;
  let failure: SvcError | undefined;
  const stream = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      seen += chunk.length;
      if (seen > maxBytes) {
        failure ??= tooLarge(maxBytes, kind);
        done(failure);
      } else {
        done(null, chunk);
      }
    },
  });
  const cut = (): void => {
    if (request.readableEnded || stream.destroyed) return;
    failure ??= new InputError(`the upload ended after ${seen} bytes, before the ${kind} did; send it again`, { code: 'upload_incomplete' });
    stream.destroy(failure);
  };
  request.on('error', cut);
  request.on('close', cut);
  // The request goes on writing into the stream while its reader is not listening yet (the store
  // takes a lock first): an error then must not go unhandled. The reader sees the stream
  // errored when it comes, and the route reads `failure()`.
  stream.on('error', () => undefined);
  request.pipe(stream);
  return { stream, failure: () => failure };
}
