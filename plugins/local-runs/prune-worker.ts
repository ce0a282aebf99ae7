import type { Logger, Worker } from '../../core/kernel/index.js';
import type { Clock, SnapshotStore } from '../../core/ports/index.js';

export interface PruneWorkerOptions {
  readonly snapshots: SnapshotStore;
  readonly clock: Clock;
  readonly logger: Logger;
  readonly everyMs?: number;
}

const PRUNE_EVERY_MS = 60_000;

/**
 * The `snapshot-pruner` worker: once a minute, drops the snapshots whose retention ran out.
 * A failed pass is logged and the next one retries; `stop` waits for the pass in flight.
 */
export function createPruneWorker(options: PruneWorkerOptions): Worker {
  const { snapshots, clock, logger } = options;
  const everyMs = options.everyMs ?? PRUNE_EVERY_MS;
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  let pruning: Promise<void> | undefined;

  const schedule = (): void => {
    if (stopped) return;
    timer = setTimeout(() => {
      pruning = snapshots
        .prune(clock.now())
        .then(
          (pruned) => {
            if (pruned > 0) logger.info({ pruned }, 'pruned expired snapshots');
          },
          (error: unknown) => logger.warn({ err: error }, 'pruning snapshots failed; retrying at the next interval'),
        )
        .finally(() => {
          pruning = undefined;
          schedule();
        });
    }, everyMs);
  };

  return {
    name: 'snapshot-pruner',
    start() {
      stopped = false;
      schedule();
    },
    async stop() {
      stopped = true;
      clearTimeout(timer);
      await pruning;
    },
  };
}
