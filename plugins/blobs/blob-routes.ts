import type { IncomingMessage } from 'node:http';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { NotFoundError } from '../../core/kernel/index.js';
import type { BlobStore, BlobUrlSigner, SignedMethod } from '../../core/ports/index.js';

export const BLOB_ROUTE_PREFIX = '/_blobs';

function keyOf(request: FastifyRequest): string {
  return (request.params as { '*': string })['*'];
}

/**
 * Signed blob URLs: `GET|PUT /_blobs/<key>?exp=&sig=`. The signature is the credential, so the
 * group is public; anything unsigned, expired or altered is refused with 401 before any I/O.
 */
export function registerBlobRoutes(app: FastifyInstance, store: BlobStore, signer: BlobUrlSigner): void {
  // Bodies are streamed to the store as they arrive, whatever their content type.
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', (_request: FastifyRequest, _payload: IncomingMessage, done: (err: Error | null, body?: unknown) => void) => done(null));

  const verify = (request: FastifyRequest, method: SignedMethod) => signer.verify(keyOf(request), method, request.query as Record<string, unknown>);

  app.get('/*', async (request, reply) => {
    verify(request, 'GET');
    const key = keyOf(request);
    const info = await store.stat(key);
    const body = info && (await store.get(key));
    if (!info || !body) throw new NotFoundError(`blob '${key}' does not exist`, { code: 'blob_not_found' });
    return reply.header('content-type', 'application/octet-stream').header('content-length', info.size).send(body);
  });

  app.put('/*', async (request, reply) => {
    verify(request, 'PUT');
    const info = await store.put(keyOf(request), request.raw);
    return reply.status(201).send({ key: info.key, size: info.size });
  });
}
