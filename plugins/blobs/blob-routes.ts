import type { IncomingMessage } from 'node:http';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { NotFoundError } from '../../core/kernel/index.js';
import type { BlobStore, BlobUrlSigner, SignedMethod } from '../../core/ports/index.js';

export const BLOB_ROUTE_PREFIX = '/_blobs';

function keyOf(request: FastifyRequest): string {
  return (request.params as { '*': string })['*'];
}

function verify(signer: BlobUrlSigner, request: FastifyRequest, method: SignedMethod): void {
  signer.verify(keyOf(request), method, request.query as Record<string, unknown>);
}

/**
 * `GET /_blobs/<key>?exp=&sig=`: a signed download. The signature is the credential, so the group
 * is public; anything unsigned, expired or altered is refused with 401 before any I/O. Runners
 * download from here (action archives), so it is also served on the runner socket.
 */
export function registerBlobDownloadRoute(app: FastifyInstance, store: BlobStore, signer: BlobUrlSigner): void {
  app.get('/*', async (request, reply) => {
    verify(signer, request, 'GET');
    const key = keyOf(request);
    const info = await store.stat(key);
    const body = info && (await store.get(key));
    if (!info || !body) throw new NotFoundError(`blob '${key}' does not exist`, { code: 'blob_not_found' });
    return reply.header('content-type', 'application/octet-stream').header('content-length', info.size).send(body);
  });
}

/** `PUT /_blobs/<key>?exp=&sig=`: a signed upload, streamed to the store whatever its content type. */
export function registerBlobUploadRoute(app: FastifyInstance, store: BlobStore, signer: BlobUrlSigner): void {
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', (_request: FastifyRequest, _payload: IncomingMessage, done: (err: Error | null, body?: unknown) => void) => done(null));

  app.put('/*', async (request, reply) => {
    verify(signer, request, 'PUT');
    const info = await store.put(keyOf(request), request.raw);
    return reply.status(201).send({ key: info.key, size: info.size });
  });
}
