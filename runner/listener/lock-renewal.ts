import { randomBackoff, sleep } from '../client/index.js';
import type { ListenerTimings } from './timings.js';

/** One job's lock on the server: legacy `PATCH jobrequests` or run-service `renewjob` (§2.7). */
export interface JobLock {
  /** Renews; resolves with `lockedUntil` (epoch ms). */
  renew(signal: AbortSignal): Promise<number>;
  /** True for an answer after which renewing is pointless (the job is gone or no longer ours). */
  isFinal(error: unknown): boolean;
}

/**
 * RenewJobRequestAsync: renews every 60 s from before the worker starts. The first renewal gets
 * 5 attempts 1–10 s apart; later failures are retried (5–15 s, 15–30 s after five) until
 * `lockedUntil` + 5 minutes. `stopped` resolves when renewal gave up (or `stop()` was called).
 */
export class LockRenewal {
  readonly firstRenewed: Promise<void>;
  readonly stopped: Promise<void>;
  #markFirst!: () => void;
  #gaveUp = false;
  readonly #abort = new AbortController();

  constructor(
    private readonly lock: JobLock,
    private readonly timings: ListenerTimings,
    private readonly onError: (error: unknown) => void = () => undefined,
  ) {
    this.firstRenewed = new Promise((resolve) => (this.#markFirst = resolve));
    this.stopped = this.#loop();
  }

  /** True when renewal stopped by itself (the lock is lost), not because it was stopped. */
  get gaveUp(): boolean {
    return this.#gaveUp;
  }

  async stop(): Promise<void> {
    this.#abort.abort();
    await this.stopped;
  }

  async #loop(): Promise<void> {
    const signal = this.#abort.signal;
    let first = false;
    let firstAttemptsLeft = 5;
    let errors = 0;
    let lockedUntil = 0;
    while (!signal.aborted) {
      try {
        lockedUntil = await this.lock.renew(signal);
        if (!first) {
          first = true;
          this.#markFirst();
        }
        errors = 0;
        await sleep(this.timings.renewIntervalMs, signal);
        continue;
      } catch (error) {
        if (signal.aborted) return;
        this.onError(error);
        if (this.lock.isFinal(error)) break;
        errors += 1;
        let delay: number | undefined;
        if (!first) {
          if (firstAttemptsLeft-- > 0) delay = randomBackoff(...this.timings.firstRenewBackoffMs);
        } else if (lockedUntil + this.timings.renewGraceMs - Date.now() > 0) {
          delay = randomBackoff(...(errors > 5 ? this.timings.renewBackoffLongMs : this.timings.renewBackoffMs));
        }
        if (delay === undefined) break;
        try {
          await sleep(delay, signal);
        } catch {
          return;
        }
      }
    }
    if (!signal.aborted) this.#gaveUp = true;
  }
}
