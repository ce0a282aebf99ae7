import type { Notifier, WaitOptions, WakeReason } from './notifier.js';

/**
 * Waits for the first notification on `channel`, the timer, or the abort signal, whichever
 * comes first, and always unsubscribes before returning. The timer starts once the subscription
 * is live. Callers re-read the store whatever the reason: a notification is only a hint.
 */
export async function waitForWake(notifier: Notifier, channel: string, options: WaitOptions): Promise<WakeReason> {
  const { timeoutMs, signal } = options;
  if (!Number.isFinite(timeoutMs) || timeoutMs < 0) {
    throw new RangeError(`waitForWake needs a timeout of zero or more milliseconds, got ${timeoutMs}`);
  }
  if (signal?.aborted) return 'aborted';

  let settle: (reason: WakeReason) => void = () => undefined;
  const outcome = new Promise<WakeReason>((resolve) => {
    settle = resolve;
  });
  let settled = false;
  const finish = (reason: WakeReason): void => {
    if (settled) return;
    settled = true;
    settle(reason);
  };

  const unsubscribe = await notifier.subscribe(channel, () => finish('notified'));
  const timer = setTimeout(() => finish('timeout'), timeoutMs);
  const onAbort = (): void => finish('aborted');
  signal?.addEventListener('abort', onAbort, { once: true });
  if (signal?.aborted) finish('aborted');
  try {
    return await outcome;
  } finally {
    clearTimeout(timer);
    signal?.removeEventListener('abort', onAbort);
    await unsubscribe();
  }
}
