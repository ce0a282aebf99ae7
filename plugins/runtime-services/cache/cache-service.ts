import type { Readable } from 'node:stream';
import { ConflictError, ForbiddenError, InputError, NotFoundError, SvcError } from '../../../core/kernel/index.js';
import type { Clock, IdGenerator, RuntimeJob, RuntimeJobContext } from '../../../core/ports/index.js';
import { BLOB_ROUTE, type BlobUrlCapabilities, type BlockBlobs } from '../blobs/index.js';
import { conflictOnDuplicate, nextRuntimeId, type RuntimeDb } from '../store/index.js';
import { entryById, findEntry, listEntries, matchEntry, type CacheEntry } from './cache-entries.js';
import { checkKey, checkKeys, checkVersion, readableScopes, requireRead, requireWrite, writableScope } from './cache-scopes.js';

export interface CacheSettings {
  /** Largest entry accepted; the per-repository limit (an entry over it would be evicted at once). */
  readonly maxEntryBytes: number;
  /** Lifetime of an upload URL; a reservation older than this may be taken over by another job. */
  readonly uploadTtlSecs: number;
  readonly downloadTtlSecs: number;
}

export interface CacheServiceDeps {
  readonly db: RuntimeDb;
  readonly blobs: BlockBlobs;
  readonly capabilities: BlobUrlCapabilities;
  readonly clock: Clock;
  readonly ids: IdGenerator;
  readonly settings: CacheSettings;
  /** Origin the signed URLs point at (the public URL's). */
  readonly baseUrl: () => string;
}

/** The job calling, with its run and plan facts. */
export interface CacheCaller {
  readonly job: RuntimeJob;
  readonly context: RuntimeJobContext;
}

export interface Reservation {
  readonly entryId: number;
  readonly uploadUrl: string;
}

export interface CacheHit {
  readonly entry: CacheEntry;
  readonly downloadUrl: string;
}

/**
 * The cache service behind both wires (v2 Twirp and v1 `_apis/artifactcache`): entries are
 * `(repository, scope, key, version)`, uploaded once through a signed URL, immutable once
 * finalized; restores search the caller's readable scopes in order, and in each the key and then
 * the restore keys, an exact match before a prefix match, newest first. The job's cache mode is
 * enforced on every call.
 */
export interface CacheService {
  reserve(caller: CacheCaller, key: string, version: string, sizeHint?: number): Promise<Reservation>;
  finalize(caller: CacheCaller, key: string, version: string, size: number): Promise<CacheEntry>;
  lookup(caller: CacheCaller, keys: readonly string[], version: string): Promise<CacheHit | undefined>;
  /** Cache v1: a chunk of a reservation's upload. */
  writeChunk(caller: CacheCaller, entryId: number, start: number, end: number, body: Readable): Promise<void>;
  /** Cache v1: the chunks uploaded become the entry, which is finalized. */
  commitChunks(caller: CacheCaller, entryId: number, size: number): Promise<CacheEntry>;
  /** Cache v1 diagnostics: entries with `key` the caller could restore. */
  list(caller: CacheCaller, key: string): Promise<CacheEntry[]>;
}

export function createCacheService(deps: CacheServiceDeps): CacheService {
  const { db, blobs, clock, settings } = deps;
  const url = (blobId: string, permission: 'r' | 'w', ttl: number): string => `${deps.baseUrl()}${BLOB_ROUTE}/${blobId}?${deps.capabilities.sign(blobId, permission, ttl)}`;

  /** The caller's own reservation, by id (v1). */
  async function ownReservation(caller: CacheCaller, entryId: number): Promise<CacheEntry> {
    const entry = await entryById(db, entryId);
    if (entry === undefined || entry.repository !== caller.context.repository) throw new NotFoundError(`no cache entry ${entryId}`, { code: 'not_found' });
    if (entry.state === 'ready') throw new ConflictError(`cache entry ${entryId} is already finalized`, { code: 'already_exists' });
    if (entry.jobId !== caller.job.jobId || entry.attempt !== caller.job.attempt) {
      throw new ForbiddenError(`cache entry ${entryId} is being uploaded by another job`, { code: 'permission_denied' });
    }
    return entry;
  }

  /** Seals a reservation whose bytes were committed: it becomes the scope's entry. */
  async function seal(entry: CacheEntry, size: number): Promise<CacheEntry> {
    const blob = await blobs.state(entry.blobId);
    if (blob?.size === undefined) throw new SvcError(`nothing was uploaded for cache key '${entry.key}'`, 412, 'failed_precondition');
    if (blob.size !== size) throw new InputError(`the upload holds ${blob.size} bytes, not the ${size} given`, { code: 'invalid_argument' });
    if (size > settings.maxEntryBytes) {
      throw new InputError(`the cache entry is ${size} bytes, over the limit of ${settings.maxEntryBytes} (SVC_CACHE_MAX_BYTES)`, { code: 'invalid_argument' });
    }
    const now = clock.now();
    const sealed = await db.transaction().execute(async (tx) => {
      const updated = await tx
        .updateTable('runtime_cache_entries')
        .set({ state: 'ready', size, finalized_at: now, last_used_at: now })
        .where('id', '=', entry.id)
        .where('state', '=', 'reserved')
        .executeTakeFirst();
      if (updated.numUpdatedRows === 0n) return false;
      await blobs.seal(tx, entry.blobId);
      return true;
    });
    if (!sealed) throw new ConflictError(`the cache entry for key '${entry.key}' is already finalized`, { code: 'already_exists' });
    return { ...entry, state: 'ready', size, finalizedAt: now, lastUsedAt: now };
  }

  return {
    async reserve(caller, key, version, sizeHint) {
      requireWrite(caller.context);
      checkKey(key);
      checkVersion(version);
      if (sizeHint !== undefined && sizeHint > settings.maxEntryBytes) {
        throw new InputError(`Cache size of ${sizeHint} B is over the limit of ${settings.maxEntryBytes} B, not saving cache.`, { code: 'invalid_argument' });
      }
      const identity = { repository: caller.context.repository, scope: writableScope(caller.context), key, version };
      const now = clock.now();
      const blobId = deps.ids.uuid();
      const { entryId, replaced } = await conflictOnDuplicate(db.transaction().execute(async (tx) => {
        const existing = await findEntry(tx, identity);
        if (existing?.state === 'ready') {
          throw new ConflictError('cache entry with the same key, version, and scope already exists', { code: 'already_exists' });
        }
        const ownRetry = existing !== undefined && existing.jobId === caller.job.jobId && existing.attempt === caller.job.attempt;
        if (existing !== undefined && !ownRetry && existing.createdAt > now - settings.uploadTtlSecs * 1000) {
          throw new ConflictError('another job is uploading a cache entry with the same key, version, and scope', { code: 'already_exists' });
        }
        if (existing !== undefined) await tx.deleteFrom('runtime_cache_entries').where('id', '=', existing.id).execute();
        await blobs.create(tx, blobId);
        const id = await nextRuntimeId(tx, 'cache_entry');
        await tx
          .insertInto('runtime_cache_entries')
          .values({
            id,
            repository: identity.repository,
            scope: identity.scope,
            cache_key: key,
            version,
            blob_id: blobId,
            state: 'reserved',
            size: null,
            run_id: caller.job.runId,
            job_id: caller.job.jobId,
            attempt: caller.job.attempt,
            created_at: now,
            finalized_at: null,
            last_used_at: now,
          })
          .execute();
        return { entryId: id, replaced: existing?.blobId };
      }), 'another job is creating a cache entry with the same key, version, and scope');
      if (replaced !== undefined) await blobs.remove(replaced);
      return { entryId, uploadUrl: url(blobId, 'w', settings.uploadTtlSecs) };
    },

    async finalize(caller, key, version, size) {
      requireWrite(caller.context);
      checkKey(key);
      checkVersion(version);
      const entry = await findEntry(db, { repository: caller.context.repository, scope: writableScope(caller.context), key, version });
      if (entry === undefined) throw new NotFoundError(`no cache entry was created for key '${key}' and this version in ${writableScope(caller.context)}`, { code: 'not_found' });
      return seal(await ownReservation(caller, entry.id), size);
    },

    async lookup(caller, keys, version) {
      requireRead(caller.context);
      checkKeys(keys);
      checkVersion(version);
      for (const scope of readableScopes(caller.context)) {
        for (const key of keys) {
          for (const exact of [true, false]) {
            const entry = await matchEntry(db, caller.context.repository, scope, version, key, exact);
            if (entry === undefined) continue;
            const now = clock.now();
            await db.updateTable('runtime_cache_entries').set({ last_used_at: now }).where('id', '=', entry.id).execute();
            return { entry: { ...entry, lastUsedAt: now }, downloadUrl: url(entry.blobId, 'r', settings.downloadTtlSecs) };
          }
        }
      }
      return undefined;
    },

    async writeChunk(caller, entryId, start, end, body) {
      requireWrite(caller.context);
      const entry = await ownReservation(caller, entryId);
      await blobs.writeRange(entry.blobId, start, end, body);
    },

    async commitChunks(caller, entryId, size) {
      requireWrite(caller.context);
      const entry = await ownReservation(caller, entryId);
      await blobs.commitRanges(entry.blobId, size);
      return seal(entry, size);
    },

    async list(caller, key) {
      requireRead(caller.context);
      return listEntries(db, caller.context.repository, readableScopes(caller.context), checkKey(key));
    },
  };
}
