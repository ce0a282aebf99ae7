/** Back-off helpers shaped like the runner's (BackoffTimerHelper.GetRandomBackoff). */

/** A random delay in [minMs, maxMs]. */
export function randomBackoff(minMs: number, maxMs: number, random: () => number = Math.random): number {
  return Math.round(minMs + (maxMs - minMs) * random());
}

/** Sleeps `ms`; rejects with the signal's reason when it is aborted first. */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) {
      reject(abortReason(signal));
      return;
    }
    const onAbort = () => {
      clearTimeout(timer);
      reject(abortReason(signal));
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

function abortReason(signal: AbortSignal | undefined): unknown {
  return signal?.reason ?? new DOMException('The operation was aborted', 'AbortError');
}

/** True for the error an aborted fetch or sleep rejects with. */
export function isAbort(error: unknown, signal?: AbortSignal): boolean {
  if (signal?.aborted === true && (error === signal.reason || (error instanceof Error && error.name === 'AbortError'))) return true;
  return error instanceof Error && error.name === 'AbortError' && signal === undefined;
}
