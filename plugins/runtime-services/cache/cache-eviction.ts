import type { BlockBlobs } from '../blobs/index.js';
import { num, type RuntimeDb } from '../store/index.js';

export interface CacheEvictionSettings {
  /** Ready entries of one repository beyond this many bytes go, least recently used first (`SVC_CACHE_MAX_BYTES`). */
  readonly maxBytesPerRepository: number;
  /** Ready entries not restored or saved for this long go (`SVC_CACHE_MAX_AGE_DAYS`). */
  readonly maxUnusedMs: number;
  /** Reservations never finalized within this long go (their upload URL is dead by then). */
  readonly staleReservationMs: number;
}

export interface EvictionReport {
  readonly stale: number;
  readonly unused: number;
  readonly oversize: number;
}

/** Rows looked at per category and pass; the next pass continues. */
const BATCH = 500;

/**
 * One eviction pass, GitHub's policy: entries unused for the age limit, then per repository the
 * least recently used until it is within its size limit; abandoned reservations too. A row is
 * deleted (conditionally, so a concurrent pass or finalize is not undone) before its bytes.
 */
export async function evictCaches(db: RuntimeDb, blobs: BlockBlobs, now: number, settings: CacheEvictionSettings): Promise<EvictionReport> {
  const drop = async (rows: readonly { id: number | string; blob_id: string }[], state: 'reserved' | 'ready'): Promise<number> => {
    let dropped = 0;
    for (const row of rows) {
      const deleted = await db.deleteFrom('runtime_cache_entries').where('id', '=', num(row.id)).where('state', '=', state).executeTakeFirst();
      if (deleted.numDeletedRows === 0n) continue;
      await blobs.remove(row.blob_id);
      dropped += 1;
    }
    return dropped;
  };

  const stale = await drop(
    await db
      .selectFrom('runtime_cache_entries')
      .select(['id', 'blob_id'])
      .where('state', '=', 'reserved')
      .where('created_at', '<', now - settings.staleReservationMs)
      .limit(BATCH)
      .execute(),
    'reserved',
  );
  const unused = await drop(
    await db
      .selectFrom('runtime_cache_entries')
      .select(['id', 'blob_id'])
      .where('state', '=', 'ready')
      .where('last_used_at', '<', now - settings.maxUnusedMs)
      .orderBy('last_used_at')
      .limit(BATCH)
      .execute(),
    'ready',
  );

  let oversize = 0;
  const totals = await db
    .selectFrom('runtime_cache_entries')
    .select((eb) => ['repository', eb.fn.sum<number | string>('size').as('total')])
    .where('state', '=', 'ready')
    .groupBy('repository')
    .execute();
  for (const { repository, total } of totals) {
    let excess = num(total ?? 0) - settings.maxBytesPerRepository;
    if (excess <= 0) continue;
    const candidates = await db
      .selectFrom('runtime_cache_entries')
      .select(['id', 'blob_id', 'size'])
      .where('repository', '=', repository)
      .where('state', '=', 'ready')
      .orderBy('last_used_at')
      .orderBy('id')
      .limit(BATCH)
      .execute();
    const victims: { id: number | string; blob_id: string }[] = [];
    for (const candidate of candidates) {
      if (excess <= 0) break;
      victims.push(candidate);
      excess -= num(candidate.size ?? 0);
    }
    oversize += await drop(victims, 'ready');
  }
  return { stale, unused, oversize };
}
