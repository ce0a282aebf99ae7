import { RUN_EVENTS_CHANNEL } from '../../../core/engine/index.js';
import type { Notifier } from '../../../core/ports/index.js';

/** Wake-ups for one run's new events, kept for the whole life of a stream. */
export interface RunWake {
  /** Returns at the next announcement of this run (or at once if one came since the last wait), the timer, or abort. */
  wait(timeoutMs: number, signal: AbortSignal): Promise<void>;
  close(): Promise<void>;
}

/**
 * One subscription per stream rather than one per wait (on PostgreSQL each subscription is a
 * LISTEN). An announcement that arrives while the stream is reading is remembered, so the next
 * wait returns at once and nothing committed meanwhile waits for the timer.
 */
export async function subscribeRunWake(notifier: Notifier, runId: number): Promise<RunWake> {
  let pending = false;
  let wakeUp: (() => void) | undefined;
  const unsubscribe = await notifier.subscribe(RUN_EVENTS_CHANNEL, (payload) => {
    if (payload !== String(runId)) return;
    pending = true;
    wakeUp?.();
  });
  return {
    async wait(timeoutMs, signal) {
      if (!pending && !signal.aborted) {
        await new Promise<void>((resolve) => {
          const done = (): void => {
            clearTimeout(timer);
            signal.removeEventListener('abort', done);
            wakeUp = undefined;
            resolve();
          };
          const timer = setTimeout(done, timeoutMs);
          signal.addEventListener('abort', done, { once: true });
          wakeUp = done;
        });
      }
      pending = false;
    },
    close: unsubscribe,
  };
}
