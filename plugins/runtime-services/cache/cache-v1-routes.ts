import type { IncomingMessage } from 'node:http';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { InputError, isSvcError, type Logger } from '../../../core/kernel/index.js';
import type { RuntimeAuth } from '../auth/index.js';
import type { CacheEntry } from './cache-entries.js';
import type { CacheCaller, CacheService } from './cache-service.js';

/** Cache v1 base: `ACTIONS_CACHE_URL` + `_apis/artifactcache/...` (RUNNER-PROTOCOL.md §5.3). */
export const CACHE_V1_PREFIX = '/_apis/artifactcache';

const key = { type: 'string', minLength: 1, maxLength: 4096 } as const;
const cacheIdParams = { type: 'object', required: ['cacheId'], properties: { cacheId: { type: 'integer', minimum: 1 } } } as const;
const CONTENT_RANGE = /^bytes (\d{1,15})-(\d{1,15})\/(?:\*|\d{1,15})$/;

function entryJson(entry: CacheEntry, archiveLocation?: string) {
  return {
    cacheKey: entry.key,
    scope: entry.scope,
    cacheVersion: entry.version,
    creationTime: new Date(entry.finalizedAt ?? entry.createdAt).toISOString(),
    ...(archiveLocation === undefined ? {} : { archiveLocation }),
  };
}

/**
 * The legacy cache REST API `@actions/cache` speaks without `ACTIONS_CACHE_SERVICE_V2` or on a
 * host that fails the toolkit's gate: lookup (`GET cache?keys=&version=`, 204 = miss), reserve
 * (`POST caches`), chunk upload (`PATCH caches/{id}` with `Content-Range`), commit (`POST
 * caches/{id}`), diagnostics list (`GET caches?key=`). Same service, scopes and cache mode as v2;
 * errors are `{message}` bodies (the toolkit shows `message`; denials start with the prefixes it
 * recognises).
 */
export function registerCacheV1Routes(app: FastifyInstance, deps: { readonly auth: RuntimeAuth; readonly cache: CacheService; readonly logger: Logger }): void {
  const { auth, cache } = deps;
  const caller = async (request: FastifyRequest): Promise<CacheCaller> => {
    const job = auth.jobOf(request);
    return { job, context: await auth.contextOf(job) };
  };
  // Chunks stream to the blob store as they arrive.
  app.addContentTypeParser('application/octet-stream', (_request: FastifyRequest, _payload: IncomingMessage, done: (err: Error | null, body?: unknown) => void) => done(null));
  app.setErrorHandler((error: FastifyError, request, reply) => sendV1Error(reply, error, deps.logger, request));
  auth.guard(app);

  app.get<{ Querystring: { keys: string; version: string } }>(
    `${CACHE_V1_PREFIX}/cache`,
    { schema: { querystring: { type: 'object', required: ['keys', 'version'], properties: { keys: key, version: key } } } },
    async (request, reply) => {
      const hit = await cache.lookup(await caller(request), request.query.keys.split(','), request.query.version);
      if (hit === undefined) return reply.status(204).send();
      return entryJson(hit.entry, hit.downloadUrl);
    },
  );

  app.get<{ Querystring: { key: string } }>(
    `${CACHE_V1_PREFIX}/caches`,
    { schema: { querystring: { type: 'object', required: ['key'], properties: { key } } } },
    async (request) => {
      const entries = await cache.list(await caller(request), request.query.key);
      return { totalCount: entries.length, artifactCaches: entries.map((entry) => entryJson(entry)) };
    },
  );

  app.post<{ Body: { key: string; version: string; cacheSize?: number } }>(
    `${CACHE_V1_PREFIX}/caches`,
    { schema: { body: { type: 'object', required: ['key', 'version'], properties: { key, version: key, cacheSize: { type: 'integer', minimum: 0 } } } } },
    async (request, reply) => {
      const reservation = await cache.reserve(await caller(request), request.body.key, request.body.version, request.body.cacheSize);
      return reply.status(201).send({ cacheId: reservation.entryId });
    },
  );

  app.patch<{ Params: { cacheId: number } }>(`${CACHE_V1_PREFIX}/caches/:cacheId`, { schema: { params: cacheIdParams } }, async (request, reply) => {
    const range = CONTENT_RANGE.exec(String(request.headers['content-range'] ?? ''));
    const start = Number(range?.[1]);
    const end = Number(range?.[2]);
    if (range === null || end < start) throw new InputError("a chunk needs 'Content-Range: bytes <start>-<end>/*'", { code: 'invalid_content_range' });
    await cache.writeChunk(await caller(request), request.params.cacheId, start, end, request.raw);
    return reply.status(204).send();
  });

  app.post<{ Params: { cacheId: number }; Body: { size: number } }>(
    `${CACHE_V1_PREFIX}/caches/:cacheId`,
    { schema: { params: cacheIdParams, body: { type: 'object', required: ['size'], properties: { size: { type: 'integer', minimum: 0 } } } } },
    async (request, reply) => {
      await cache.commitChunks(await caller(request), request.params.cacheId, request.body.size);
      return reply.status(204).send();
    },
  );
}

function sendV1Error(reply: FastifyReply, error: FastifyError, logger: Logger, request: FastifyRequest): FastifyReply {
  if (isSvcError(error) && error.status < 500) return reply.status(error.status).send({ message: error.message, code: error.code });
  if (!isSvcError(error) && error.validation !== undefined) return reply.status(400).send({ message: error.message, code: 'invalid_request' });
  if (!isSvcError(error) && typeof error.statusCode === 'number' && error.statusCode >= 400 && error.statusCode < 500) {
    return reply.status(error.statusCode).send({ message: error.message, code: 'invalid_request' });
  }
  logger.error({ err: error, url: request.url.split('?')[0] }, 'cache v1 request failed');
  return reply.status(500).send({ message: 'internal error; the server log has the details', code: 'internal_error' });
}
