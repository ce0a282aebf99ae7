import { RUN_ADVANCE_CHANNEL, RUN_EVENTS_CHANNEL } from '../../../core/engine/index.js';
import type { Notifier } from '../../../core/ports/index.js';

/**
 * Waits until something happens to one run (a cancel request or a completion advances it; a
 * recorded event announces it), the timer runs out, or `signal` aborts. Only wake-ups naming the
 * run end the wait, so a busy runner's poll is not woken by every other run. A hint only: the
 * caller re-reads the job whatever ended the wait.
 */
export async function waitForRun(notifier: Notifier, runId: number, options: { readonly timeoutMs: number; readonly signal: AbortSignal }): Promise<void> {
  if (options.signal.aborted) return;
  const payload = String(runId);
  let finish: () => void = () => undefined;
  const done = new Promise<void>((resolve) => {
    finish = resolve;
  });
  const listener = (value: string) => {
    if (value === payload) finish();
  };
  const unsubscribes = [await notifier.subscribe(RUN_ADVANCE_CHANNEL, listener), await notifier.subscribe(RUN_EVENTS_CHANNEL, listener)];
  const timer = setTimeout(finish, options.timeoutMs);
  options.signal.addEventListener('abort', finish, { once: true });
  try {
    if (!options.signal.aborted) await done;
  } finally {
    clearTimeout(timer);
    options.signal.removeEventListener('abort', finish);
    for (const unsubscribe of unsubscribes) await unsubscribe();
  }
}
