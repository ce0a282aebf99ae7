import type { Clock, Notifier } from '../../ports/index.js';
import { RUN_EVENTS_CHANNEL, type RunEvent } from '../events/run-events.js';
import { isTerminal } from '../model/statuses.js';
import type { EngineDb, EngineTx } from './engine-db.js';
import { nextIds } from './sequences.js';

/**
 * One transaction and what must happen after it commits. State changes and their events are
 * written together; notifications go out only after the commit, so a woken reader always
 * finds the rows it was told about.
 */
export interface UnitOfWork {
  readonly tx: EngineTx;
  readonly now: number;
  /** Appends a run event row (in this transaction) and announces it after commit. */
  event(event: RunEvent): Promise<void>;
  /** Sends a notification after commit (deduplicated). */
  notify(channel: string, payload?: string): void;
}

/** PostgreSQL's deadlock and serialization failures: the transaction rolled back and may be retried. */
const RETRYABLE = new Set(['40P01', '40001']);
const ATTEMPTS = 5;

/**
 * Runs `work` in a transaction, retrying it (from the start, with a short random pause) when the
 * database picked it as a deadlock victim; the lock order (run row, then its jobs, then its event
 * counter) keeps that rare, and a retry keeps it harmless.
 */
export async function inTransaction<T>(db: EngineDb, clock: Clock, notifier: Notifier, work: (uow: UnitOfWork) => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await attemptTransaction(db, clock, notifier, work);
    } catch (error) {
      const code = (error as { code?: unknown }).code;
      if (attempt >= ATTEMPTS || typeof code !== 'string' || !RETRYABLE.has(code)) throw error;
      await new Promise((resolve) => setTimeout(resolve, Math.random() * 20 * attempt));
    }
  }
}

async function attemptTransaction<T>(db: EngineDb, clock: Clock, notifier: Notifier, work: (uow: UnitOfWork) => Promise<T>): Promise<T> {
  const notifications = new Map<string, string>();
  const result = await db.transaction().execute(async (tx) => {
    const now = clock.now();
    const uow: UnitOfWork = {
      tx,
      now,
      async event(event) {
        // A counter per run: writers of different runs never wait for each other.
        const seq = await nextIds(tx, `events:${event.run_id}`);
        const jobId = 'job_id' in event ? event.job_id : null;
        await tx.insertInto('engine_events').values({ run_id: event.run_id, seq, job_id: jobId, type: event.type, body: JSON.stringify(event), created_at: now }).execute();
        notifications.set(`${RUN_EVENTS_CHANNEL}|${event.run_id}`, String(event.run_id));
        // Every way a run ends writes this event: its run-supplied values go with it (names stay).
        if (event.type === 'run_status' && isTerminal(event.status)) {
          await tx.updateTable('engine_run_values').set({ sealed: null }).where('run_id', '=', event.run_id).where('sealed', 'is not', null).execute();
        }
      },
      notify(channel, payload = '') {
        notifications.set(`${channel}|${payload}`, payload);
      },
    };
    return work(uow);
  });
  for (const [key, payload] of notifications) {
    const channel = key.slice(0, key.lastIndexOf('|'));
    await notifier.notify(channel, payload);
  }
  return result;
}
