/**
 * `PUT /_results/uploads/<upload id>?exp=…&sig=…[&comp=appendblock[&seal=true]]`: the signed URL
 * the runner uploads a log, a summary or its diagnostic logs to (§4.6). With
 * `blob_storage_type` UNSPECIFIED the runner sends plain PUTs (no `x-ms-*` headers):
 *
 * - no `comp`, a body: the whole blob (a log that fits one 2 MiB block, a summary);
 * - no `comp`, empty: an append blob is created (a log of several blocks), replacing what was there;
 * - `comp=appendblock`: a block is appended; with `seal=true` the blob is sealed after it;
 * - `comp=seal`: sealed without a block.
 *
 * The Azure REST variant says the same with headers (`x-ms-blob-type: BlockBlob|AppendBlob`,
 * `x-ms-blob-sealed: true`); they are read when present. Answers are Azure's statuses: 201
 * done, 403 a URL not signed for this upload or expired, or whose job attempt is over (the URL is
 * the job token's stand-in: it writes only while the job runs), 404 append before create, 409 append to a
 * sealed, whole or completed blob, 413 past the limits (upload-limits.ts), 400 anything else.
 * Errors carry our JSON body: the runner reads only the status.
 */
import type { IncomingMessage } from 'node:http';
import { Transform, type Readable } from 'node:stream';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { ForbiddenError, InputError, NotFoundError } from '../../../core/kernel/index.js';
import type { BlobStore, IdGenerator } from '../../../core/ports/index.js';
import { JobAttemptEndedError, type JobAttempts } from '../auth/index.js';
import { UPLOAD_LIMITS } from './upload-limits.js';
import { RESULTS_UPLOAD_PREFIX, type UploadUrls } from './upload-urls.js';
import { checkAppend, checkReplace, tooLarge, type NewBlock, type UploadRecord, type UploadsStore } from './uploads-store.js';

export interface UploadRouteDeps {
  readonly uploads: UploadsStore;
  /** Whether the upload's job attempt still runs (auth/job-attempts.ts). */
  readonly attempts: JobAttempts;
  readonly urls: UploadUrls;
  readonly blobs: BlobStore;
  readonly ids: IdGenerator;
  /** A blob that is whole now (one PUT, or sealed) and that no metadata call will complete. */
  readonly onWhole: (upload: UploadRecord) => Promise<void>;
}

type Operation = { readonly kind: 'put'; readonly type: 'append' | 'block' | undefined } | { readonly kind: 'append'; readonly seal: boolean };

/** Thrown by the body cap; becomes the 413. */
class BodyPastLimit extends Error {}

function single(value: unknown, name: string): string | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'string') throw new InputError(`'${name}' is given more than once`, { code: 'upload_request_invalid' });
  return value;
}

/** What a PUT asks for, from its query (what the runner appends) and Azure's headers. */
export function operationOf(query: Readonly<Record<string, unknown>>, headers: FastifyRequest['headers']): Operation {
  const comp = single(query['comp'], 'comp')?.toLowerCase();
  const sealQuery = single(query['seal'], 'seal');
  const sealHeader = single(headers['x-ms-blob-sealed'], 'x-ms-blob-sealed');
  const seal = sealQuery?.toLowerCase() === 'true' || sealHeader?.toLowerCase() === 'true';
  const typeHeader = single(headers['x-ms-blob-type'], 'x-ms-blob-type')?.toLowerCase();
  if (comp === 'appendblock') return { kind: 'append', seal };
  if (comp === 'seal') return { kind: 'append', seal: true };
  if (comp !== undefined) throw new InputError(`comp=${comp} is not supported; uploads take a whole blob, comp=appendblock or comp=seal`, { code: 'upload_request_invalid' });
  if (typeHeader === undefined) return { kind: 'put', type: undefined };
  if (typeHeader === 'blockblob') return { kind: 'put', type: 'block' };
  if (typeHeader === 'appendblob') return { kind: 'put', type: 'append' };
  throw new InputError(`x-ms-blob-type ${typeHeader} is not supported; use BlockBlob or AppendBlob`, { code: 'upload_request_invalid' });
}

function capped(source: Readable, limit: number): Readable {
  let seen = 0;
  const cap = new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      seen += chunk.length;
      if (seen > limit) callback(new BodyPastLimit());
      else callback(null, chunk);
    },
  });
  source.once('error', (error) => cap.destroy(error));
  return source.pipe(cap);
}

/** The request's body as a new block in the store; undefined when the body is empty. */
async function receiveBlock(deps: UploadRouteDeps, upload: UploadRecord, raw: IncomingMessage, limit: number): Promise<NewBlock | undefined> {
  const declared = raw.headers['content-length'];
  if (declared !== undefined && Number(declared) > limit) throw tooLarge(`this ${upload.kind} request body`, limit);
  if (declared === '0' || (declared === undefined && raw.headers['transfer-encoding'] === undefined)) return undefined;
  // A key per block: a block is written in full before it is registered, and never overwritten.
  const { runId, jobId, attempt } = upload.scope;
  const blobKey = `runner-results/${runId}/${jobId}/${attempt}/${upload.id}/${deps.ids.uuid()}`;
  let size: number;
  try {
    size = (await deps.blobs.put(blobKey, capped(raw, limit))).size;
  } catch (error) {
    if (error instanceof BodyPastLimit) throw tooLarge(`this ${upload.kind} request body`, limit);
    throw error;
  }
  if (size > 0) return { blobKey, bytes: size };
  await deps.blobs.delete(blobKey);
  return undefined;
}

async function forget(blobs: BlobStore, keys: readonly string[]): Promise<void> {
  // Best effort: a key left behind is unreferenced bytes, never read.
  for (const key of keys) await blobs.delete(key).catch(() => false);
}

export function registerUploadRoute(app: FastifyInstance, deps: UploadRouteDeps): void {
  // Bodies are streamed to the store as they arrive, whatever their content type (the runner
  // sends text/plain for logs, nothing for summaries).
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', (_request: FastifyRequest, _payload: IncomingMessage, done: (err: Error | null, body?: unknown) => void) => done(null));

  app.put<{ Params: { uploadId: string }; Querystring: Record<string, unknown> }>(`${RESULTS_UPLOAD_PREFIX}/:uploadId`, async (request, reply) => {
    const { uploadId } = request.params;
    deps.urls.verify(uploadId, request.query);
    const operation = operationOf(request.query, request.headers);
    const upload = await deps.uploads.get(uploadId);
    if (upload === undefined) throw new NotFoundError(`upload ${uploadId} does not exist`, { code: 'blob_not_found' });
    try {
      await deps.attempts.requireLive(upload.scope);
    } catch (error) {
      if (error instanceof JobAttemptEndedError) throw new ForbiddenError(error.message, { code: 'job_token_expired' });
      throw error;
    }
    // Refused before the body is read; the store checks again as it writes.
    if (operation.kind === 'append') checkAppend(upload, operation.seal);
    else checkReplace(upload);
    const limit = UPLOAD_LIMITS[upload.kind];
    const block = await receiveBlock(deps, upload, request.raw, limit.request);
    let after: UploadRecord;
    try {
      if (operation.kind === 'append') {
        after = await deps.uploads.append(uploadId, block, operation.seal, limit.total);
      } else {
        if (operation.type === 'append' && block !== undefined) {
          throw new InputError('an append blob is created empty (Content-Length: 0); append blocks with comp=appendblock', { code: 'upload_request_invalid' });
        }
        // Without Azure's header an empty PUT is the runner creating an append blob.
        const type = operation.type ?? (block === undefined ? 'append' : 'block');
        const replaced = await deps.uploads.replace(uploadId, type, block, limit.total);
        await forget(deps.blobs, replaced.replaced);
        after = replaced.upload;
      }
    } catch (error) {
      if (block !== undefined) await forget(deps.blobs, [block.blobKey]);
      throw error;
    }
    if (after.sealed) await deps.onWhole(after);
    return reply.status(201).send();
  });
}
