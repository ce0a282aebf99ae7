import { sql, type Selectable } from 'kysely';
import { num, numOrNull, type RuntimeExecutor, type RuntimeCacheEntriesTable } from '../store/index.js';

export interface CacheEntry {
  readonly id: number;
  readonly repository: string;
  readonly scope: string;
  readonly key: string;
  readonly version: string;
  readonly blobId: string;
  readonly state: 'reserved' | 'ready';
  readonly size: number | null;
  readonly runId: number;
  readonly jobId: number;
  readonly attempt: number;
  readonly createdAt: number;
  readonly finalizedAt: number | null;
  readonly lastUsedAt: number;
}

export function toCacheEntry(row: Selectable<RuntimeCacheEntriesTable>): CacheEntry {
  return {
    id: num(row.id),
    repository: row.repository,
    scope: row.scope,
    key: row.cache_key,
    version: row.version,
    blobId: row.blob_id,
    state: row.state === 'ready' ? 'ready' : 'reserved',
    size: numOrNull(row.size),
    runId: num(row.run_id),
    jobId: num(row.job_id),
    attempt: row.attempt,
    createdAt: num(row.created_at),
    finalizedAt: numOrNull(row.finalized_at),
    lastUsedAt: num(row.last_used_at),
  };
}

export interface EntryIdentity {
  readonly repository: string;
  readonly scope: string;
  readonly key: string;
  readonly version: string;
}

export async function findEntry(db: RuntimeExecutor, identity: EntryIdentity): Promise<CacheEntry | undefined> {
  const row = await db
    .selectFrom('runtime_cache_entries')
    .selectAll()
    .where('repository', '=', identity.repository)
    .where('scope', '=', identity.scope)
    .where('cache_key', '=', identity.key)
    .where('version', '=', identity.version)
    .executeTakeFirst();
  return row === undefined ? undefined : toCacheEntry(row);
}

export async function entryById(db: RuntimeExecutor, id: number): Promise<CacheEntry | undefined> {
  const row = await db.selectFrom('runtime_cache_entries').selectAll().where('id', '=', id).executeTakeFirst();
  return row === undefined ? undefined : toCacheEntry(row);
}

/**
 * The newest ready entry of `version` in `scope` whose key is `key` (`exact`) or starts with it.
 * Newest = finalized last: GitHub restores the most recently created match.
 */
export async function matchEntry(db: RuntimeExecutor, repository: string, scope: string, version: string, key: string, exact: boolean): Promise<CacheEntry | undefined> {
  let query = db
    .selectFrom('runtime_cache_entries')
    .selectAll()
    .where('repository', '=', repository)
    .where('scope', '=', scope)
    .where('version', '=', version)
    .where('state', '=', 'ready');
  query = exact
    ? query.where('cache_key', '=', key)
    : // Prefix match without LIKE, so `%` and `_` in keys are plain characters on both stores.
      query.where(sql<boolean>`substr(cache_key, 1, cast(${key.length} as integer)) = ${key}`);
  const row = await query.orderBy('finalized_at', 'desc').orderBy('id', 'desc').limit(1).executeTakeFirst();
  return row === undefined ? undefined : toCacheEntry(row);
}

/** Ready entries with `key` in the given scopes, newest first (the v1 diagnostics list). */
export async function listEntries(db: RuntimeExecutor, repository: string, scopes: readonly string[], key: string): Promise<CacheEntry[]> {
  const rows = await db
    .selectFrom('runtime_cache_entries')
    .selectAll()
    .where('repository', '=', repository)
    .where('scope', 'in', [...scopes])
    .where('cache_key', '=', key)
    .where('state', '=', 'ready')
    .orderBy('finalized_at', 'desc')
    .limit(100)
    .execute();
  return rows.map(toCacheEntry);
}
