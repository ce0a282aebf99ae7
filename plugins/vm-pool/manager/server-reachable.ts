/**
 * Resolves once the control plane answers at `url()` (any HTTP answer of the runner surface's
 * location service), so that guests are launched only when they can connect: workers start
 * before HTTP listens, and a runner that cannot connect retries only every 30 s. `url` is read
 * again on every try (the listener's address is known only once it listens).
 */
export async function waitUntilReachable(url: () => string, signal: AbortSignal, onSlow: (url: string) => void, intervalMs = 200, slowAfterTries = 150): Promise<void> {
  for (let tries = 1; ; tries += 1) {
    signal.throwIfAborted();
    const base = url().replace(/\/+$/, '');
    try {
      const response = await fetch(`${base}/_apis/connectionData`, { signal: AbortSignal.any([signal, AbortSignal.timeout(5_000)]) });
      await response.body?.cancel();
      return;
    } catch {
      // not listening yet
    }
    if (tries === slowAfterTries) onSlow(base);
    await new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, intervalMs);
      signal.addEventListener('abort', () => (clearTimeout(timer), resolve()), { once: true });
    });
  }
}
