import type { FastifyInstance, FastifyRequest } from 'fastify';
import { isSvcError, type Logger } from '../../../core/kernel/index.js';
import type { RuntimeAuth } from '../auth/index.js';
import { int64, registerTwirpService, type TwirpMethod } from '../twirp/index.js';
import type { CacheCaller, CacheService } from './cache-service.js';

/** The toolkit's cache v2 service (`@actions/cache` with `ACTIONS_CACHE_SERVICE_V2`). */
export const CACHE_TWIRP_SERVICE = 'github.actions.results.api.v1.CacheService';

const text = { type: 'string', maxLength: 4096 } as const;
const int64Value = { anyOf: [{ type: 'string', pattern: '^-?[0-9]+$' }, { type: 'integer' }] } as const;
/** `metadata` (repository id and scopes) is GitHub's routing data: accepted and ignored. */
const metadata = { type: 'object' } as const;

interface CreateBody {
  readonly key: string;
  readonly version: string;
}
interface FinalizeBody extends CreateBody {
  readonly size_bytes?: string | number;
}
interface DownloadBody extends CreateBody {
  readonly restore_keys?: readonly string[];
}

/**
 * `CreateCacheEntry`, `FinalizeCacheEntryUpload`, `GetCacheEntryDownloadURL` (RUNNER-PROTOCOL.md
 * §5.3) over the cache service. A write the job's cache mode forbids is `{ok: false, message:
 * "cache write denied: ..."}` and a read `permission_denied` with "cache read denied: ...": the
 * toolkit turns both into a warning. An existing entry is `already_exists` (the toolkit's "another
 * job may be creating this cache"); a miss is `{ok: false}`.
 */
export function registerCacheTwirp(app: FastifyInstance, deps: { readonly auth: RuntimeAuth; readonly cache: CacheService; readonly logger: Logger }): void {
  const { auth, cache } = deps;
  const caller = async (request: FastifyRequest): Promise<CacheCaller> => {
    const job = auth.jobOf(request);
    return { job, context: await auth.contextOf(job) };
  };

  const create: TwirpMethod<CreateBody> = {
    schema: { type: 'object', required: ['key', 'version'], properties: { key: text, version: text, metadata } },
    async handle(body, request) {
      try {
        const reservation = await cache.reserve(await caller(request), body.key, body.version);
        return { ok: true, signed_upload_url: reservation.uploadUrl };
      } catch (error) {
        if (isSvcError(error) && error.code === 'cache_write_denied') return { ok: false, message: error.message };
        throw error;
      }
    },
  };

  const finalize: TwirpMethod<FinalizeBody> = {
    schema: { type: 'object', required: ['key', 'version'], properties: { key: text, version: text, size_bytes: int64Value, metadata } },
    async handle(body, request) {
      const entry = await cache.finalize(await caller(request), body.key, body.version, int64(body.size_bytes, 'size_bytes') ?? 0);
      return { ok: true, entry_id: String(entry.id) };
    },
  };

  const download: TwirpMethod<DownloadBody> = {
    schema: {
      type: 'object',
      required: ['key', 'version'],
      properties: { key: text, version: text, restore_keys: { type: 'array', items: text, maxItems: 64 }, metadata },
    },
    async handle(body, request) {
      const hit = await cache.lookup(await caller(request), [body.key, ...(body.restore_keys ?? [])], body.version);
      if (hit === undefined) return { ok: false };
      return { ok: true, signed_download_url: hit.downloadUrl, matched_key: hit.entry.key };
    },
  };

  auth.guard(app);
  registerTwirpService(
    app,
    CACHE_TWIRP_SERVICE,
    { CreateCacheEntry: create, FinalizeCacheEntryUpload: finalize, GetCacheEntryDownloadURL: download },
  );
}
