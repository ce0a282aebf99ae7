import type { Logger, Worker } from '../../core/kernel/index.js';
import { RUN_ADVANCE_CHANNEL, type Engine } from '../../core/engine/index.js';
import type { Notifier } from '../../core/ports/index.js';

export interface SchedulerWorkerOptions {
  readonly engine: Engine;
  readonly notifier: Notifier;
  readonly logger: Logger;
  /** How often the sweep (lost runners, timeouts, stalled runs) runs. */
  readonly sweepEveryMs?: number;
  /** At start, this node's running jobs' leases last at least this long (Engine.grantReconnectGrace). */
  readonly reconnectGraceMs?: number;
}

const SWEEP_EVERY_MS = 5000;
/** Longer than the runner's lock renewal interval (60 s) plus its first retries after an outage. */
export const RECONNECT_GRACE_MS = 90_000;

/**
 * The `scheduler` worker: advances runs announced on RUN_ADVANCE_CHANNEL (one at a time, each
 * run once however often it was announced meanwhile) and sweeps every 5 s, so a lost
 * notification or a node that died costs latency only. `stop` unsubscribes, cancels the next
 * sweep and waits for the pass in flight. At start, jobs this node was hearing from when its
 * previous server stopped get a reconnect grace before their leases can lapse: their runners may
 * have kept them going through the outage and renew once they reach the server again (other
 * nodes' jobs are theirs, or taken over when their node is dead).
 */
export function createSchedulerWorker(options: SchedulerWorkerOptions): Worker {
  const { engine, notifier, logger } = options;
  const sweepEveryMs = options.sweepEveryMs ?? SWEEP_EVERY_MS;
  const queued = new Set<number>();
  let stopped = false;
  let unsubscribe: (() => Promise<void>) | undefined;
  let timer: NodeJS.Timeout | undefined;
  let advancing: Promise<void> | undefined;
  let sweeping: Promise<void> | undefined;

  const advanceQueued = (): void => {
    if (advancing || stopped) return;
    advancing = (async () => {
      for (let next = first(queued); next !== undefined && !stopped; next = first(queued)) {
        queued.delete(next);
        try {
          await engine.advance(next);
        } catch (error) {
          logger.warn({ err: error, runId: next }, 'advancing a run failed; the sweep retries it');
        }
      }
    })().finally(() => {
      advancing = undefined;
      if (queued.size > 0) advanceQueued();
    });
  };

  const scheduleSweep = (): void => {
    if (stopped) return;
    timer = setTimeout(() => {
      sweeping = engine
        .sweep()
        .then(
          () => undefined,
          (error: unknown) => logger.warn({ err: error }, 'engine sweep failed; retrying at the next interval'),
        )
        .finally(() => {
          sweeping = undefined;
          scheduleSweep();
        });
    }, sweepEveryMs);
  };

  return {
    name: 'scheduler',
    async start() {
      const extended = await engine.grantReconnectGrace(options.reconnectGraceMs ?? RECONNECT_GRACE_MS);
      if (extended > 0) logger.info({ jobs: extended, graceMs: options.reconnectGraceMs ?? RECONNECT_GRACE_MS }, 'running jobs get a reconnect grace before their runners must have renewed their locks');
      unsubscribe = await notifier.subscribe(RUN_ADVANCE_CHANNEL, (payload) => {
        const runId = Number(payload);
        if (!Number.isSafeInteger(runId) || runId <= 0) return;
        queued.add(runId);
        advanceQueued();
      });
      scheduleSweep();
    },
    async stop() {
      stopped = true;
      clearTimeout(timer);
      await unsubscribe?.();
      await advancing;
      await sweeping;
    },
  };
}

function first(set: ReadonlySet<number>): number | undefined {
  for (const value of set) return value;
  return undefined;
}
