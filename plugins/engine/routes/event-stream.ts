import { isTerminal, type Engine, type Reporting } from '../../../core/engine/index.js';
import type { Clock, Notifier } from '../../../core/ports/index.js';
import { subscribeRunWake } from './run-wake.js';
import { jobStatusEvent, runStatusEvent, toWireLine } from './wire-events.js';

export interface EventStreamDependencies {
  readonly engine: Engine;
  readonly reporting: Reporting;
  readonly notifier: Notifier;
  readonly clock: Clock;
}

/** Spec: a stream with nothing to send for 5 minutes closes; readers re-read at least every 5 s. */
export const STREAM_IDLE_MS = 5 * 60_000;
export const STREAM_REREAD_MS = 5000;
const FLUSH_BYTES = 64 * 1024;

/**
 * The lines of `GET /api/v1/runs/{run_id}/events.ndjson`.
 *
 * Snapshot: the run's current status (`run_status`), each job's (`job_status`), then every
 * persisted event up to the run's feed position, in order. Live: events and log lines after that
 * position, in commit order, until the run is terminal. Woken by RUN_EVENTS_CHANNEL and re-reading
 * every 5 s; ends after 5 minutes with nothing to send, or when `signal` aborts (client gone,
 * server shutting down).
 *
 * Log lines written before the snapshot are not replayed: they have no identity a reconnecting
 * consumer could de-duplicate them by (`GET .../logs` has them all), while every other line
 * repeats on reconnect by design.
 */
export async function* runEventLines(deps: EventStreamDependencies, runId: number, signal: AbortSignal): AsyncGenerator<string> {
  // Subscribed before anything is read, so nothing committed after the read waits for the timer.
  const wake = await subscribeRunWake(deps.notifier, runId);
  try {
    const position = await deps.reporting.feedPosition(runId);
    const run = await deps.engine.getRun(runId);
    if (!run) return;
    const jobs = await deps.engine.listJobs(runId);
    const history = (await deps.engine.events(runId)).filter((stored) => stored.seq <= position);
    yield [runStatusEvent(run), ...jobs.map(jobStatusEvent), ...history.map((stored) => stored.event)].map(toWireLine).join('');

    let cursor = position;
    let lastSent = deps.clock.now();
    while (!signal.aborted) {
      // The status is read before the feed: if it says terminal, the feed read after it holds
      // every event up to the end (they commit together).
      const current = await deps.engine.getRun(runId);
      let out = '';
      for (let more = true; more && !signal.aborted; ) {
        const page = await deps.reporting.readFeed(runId, cursor);
        cursor = page.cursor;
        more = page.more;
        for (const entry of page.entries) out += toWireLine(entry.event);
        if (out.length >= FLUSH_BYTES) {
          yield out;
          out = '';
          lastSent = deps.clock.now();
        }
      }
      if (out !== '') {
        yield out;
        lastSent = deps.clock.now();
      }
      if (!current || isTerminal(current.status)) return;
      const idleLeft = STREAM_IDLE_MS - (deps.clock.now() - lastSent);
      if (idleLeft <= 0) return;
      await wake.wait(Math.min(STREAM_REREAD_MS, idleLeft), signal);
    }
  } finally {
    await wake.close();
  }
}
