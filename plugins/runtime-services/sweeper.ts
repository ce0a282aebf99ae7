import type { Logger, Worker } from '../../core/kernel/index.js';
import type { Clock } from '../../core/ports/index.js';
import { expireArtifacts } from './artifacts/index.js';
import type { BlockBlobs } from './blobs/index.js';
import { evictCaches, type CacheEvictionSettings } from './cache/index.js';
import type { RuntimeDb } from './store/index.js';

export interface SweepDeps {
  readonly db: RuntimeDb;
  readonly blobs: BlockBlobs;
  readonly clock: Clock;
  readonly cache: CacheEvictionSettings;
  /** Artifact uploads never finalized within this long are dropped. */
  readonly staleUploadMs: number;
}

export interface SweepReport {
  readonly cacheStale: number;
  readonly cacheUnused: number;
  readonly cacheOversize: number;
  readonly artifactsExpired: number;
}

/** One pass: cache eviction (age, size, abandoned reservations) and artifact retention. */
export async function sweepRuntimeServices(deps: SweepDeps): Promise<SweepReport> {
  const now = deps.clock.now();
  const cache = await evictCaches(deps.db, deps.blobs, now, deps.cache);
  const artifactsExpired = await expireArtifacts(deps.db, deps.blobs, now, deps.staleUploadMs);
  return { cacheStale: cache.stale, cacheUnused: cache.unused, cacheOversize: cache.oversize, artifactsExpired };
}

/**
 * The `runtime-sweeper` worker: a sweep every `everyMs` (default a minute). Passes are idempotent
 * and delete rows conditionally, so nodes sharing a store may all run it. A failed pass is logged
 * and the next retries; `stop` waits for the pass in flight.
 */
export function createSweeper(deps: SweepDeps & { readonly logger: Logger; readonly everyMs?: number }): Worker {
  const everyMs = deps.everyMs ?? 60_000;
  let stopped = true;
  let timer: NodeJS.Timeout | undefined;
  let sweeping: Promise<void> | undefined;
  const schedule = (): void => {
    if (stopped) return;
    timer = setTimeout(() => {
      sweeping = sweepRuntimeServices(deps)
        .then(
          (report) => {
            if (Object.values(report).some((count) => count > 0)) deps.logger.info(report, 'runtime services swept');
          },
          (error: unknown) => deps.logger.warn({ err: error }, 'sweeping caches and artifacts failed; retrying at the next interval'),
        )
        .finally(() => {
          sweeping = undefined;
          schedule();
        });
    }, everyMs);
  };
  return {
    name: 'runtime-sweeper',
    start() {
      stopped = false;
      schedule();
    },
    async stop() {
      stopped = true;
      clearTimeout(timer);
      await sweeping;
    },
  };
}
