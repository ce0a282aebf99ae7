/**
 * The forge circuit breaker's state machine (spec: States, "Forge circuit breaker"; Limits):
 *
 * - closed: `threshold` consecutive failures (transport, timeout, 5xx) open it; a rate limit
 *   (429, or 403 with `x-ratelimit-remaining: 0`, `retry-after` or the secondary-limit message)
 *   opens it at once. Any other answer, 4xx included, resets the count.
 * - open: calls fail fast. The interval starts at 30 s and doubles on each re-open up to 300 s; a
 *   rate limit opens it for the forge's own wait (`retry-after`, else `x-ratelimit-reset`),
 *   bounded to 1 s … 1 h.
 * - half-open: after the interval, one call goes through as the probe; any answer from the forge
 *   (404 and 422 included) closes it, a failure re-opens it. A probe with no outcome after 60 s
 *   counts as failed, so a lost probe cannot wedge the breaker.
 *
 * Pure: time comes from the injected clock, so the tests drive every transition without waiting.
 */
import type { BreakerSnapshot, BreakerStateName, Clock } from '../ports/index.js';

export const BREAKER_FIRST_INTERVAL_MS = 30_000;
export const BREAKER_MAX_INTERVAL_MS = 300_000;
export const BREAKER_PROBE_WINDOW_MS = 60_000;
export const RATE_LIMIT_MIN_WAIT_MS = 1_000;
export const RATE_LIMIT_MAX_WAIT_MS = 3_600_000;

/** What one forge call came to, for the breaker. */
export type CallOutcome =
  | { readonly kind: 'success' }
  /** Transport error, timeout or 5xx. */
  | { readonly kind: 'failure'; readonly reason: string }
  /** `waitMs`: the forge's own wait, when it gave one. */
  | { readonly kind: 'rate-limited'; readonly reason: string; readonly waitMs: number | undefined };

/** Whether a call may go to the forge now; `probe` when it is the half-open probe. */
export type Admission = { readonly admitted: true; readonly probe: boolean } | { readonly admitted: false; readonly retryAt: number; readonly reason: string };

export interface CircuitBreakerOptions {
  readonly clock: Clock;
  readonly enabled: boolean;
  readonly threshold: number;
}

export class CircuitBreaker {
  readonly #clock: Clock;
  readonly #enabled: boolean;
  readonly #threshold: number;
  #state: BreakerStateName = 'closed';
  #failures = 0;
  #openUntil = 0;
  #nextInterval = BREAKER_FIRST_INTERVAL_MS;
  #probeStartedAt: number | undefined;
  #reason: string | undefined;

  constructor(options: CircuitBreakerOptions) {
    this.#clock = options.clock;
    this.#enabled = options.enabled;
    this.#threshold = Math.max(1, Math.floor(options.threshold));
  }

  /** Moves open → half-open when the interval has passed, and drops a probe older than its window. */
  #tick(now: number): void {
    if (this.#state === 'open' && now >= this.#openUntil) {
      this.#state = 'half-open';
      this.#probeStartedAt = undefined;
    }
    if (this.#state === 'half-open' && this.#probeStartedAt !== undefined && now - this.#probeStartedAt >= BREAKER_PROBE_WINDOW_MS) {
      this.#open(now, `the probe had no answer within ${BREAKER_PROBE_WINDOW_MS / 1000} s`, undefined);
      this.#tick(now);
    }
  }

  admit(): Admission {
    if (!this.#enabled) return { admitted: true, probe: false };
    const now = this.#clock.now();
    this.#tick(now);
    if (this.#state === 'closed') return { admitted: true, probe: false };
    if (this.#state === 'half-open' && this.#probeStartedAt === undefined) {
      this.#probeStartedAt = now;
      return { admitted: true, probe: true };
    }
    // Open, or half-open with its probe in flight: the probe's answer decides before anyone else goes.
    const retryAt = this.#state === 'open' ? this.#openUntil : (this.#probeStartedAt ?? now) + BREAKER_PROBE_WINDOW_MS;
    return { admitted: false, retryAt, reason: this.#reason ?? 'the forge failed' };
  }

  /** The outcome of an admitted call. */
  record(outcome: CallOutcome, probe: boolean): void {
    if (!this.#enabled) return;
    const now = this.#clock.now();
    if (this.#state === 'half-open' && !probe) return; // a call admitted before the breaker opened
    if (outcome.kind === 'success') {
      if (this.#state === 'open') return; // a late answer to a call from before the breaker opened
      this.#state = 'closed';
      this.#failures = 0;
      this.#nextInterval = BREAKER_FIRST_INTERVAL_MS;
      this.#probeStartedAt = undefined;
      this.#reason = undefined;
      return;
    }
    if (this.#state === 'open') return;
    if (outcome.kind === 'rate-limited') return this.#open(now, outcome.reason, outcome.waitMs ?? this.#takeInterval());
    if (this.#state === 'half-open') return this.#open(now, outcome.reason, undefined);
    this.#failures += 1;
    if (this.#failures >= this.#threshold) this.#open(now, `${this.#failures} consecutive failures, the last: ${outcome.reason}`, undefined);
  }

  #takeInterval(): number {
    const interval = this.#nextInterval;
    this.#nextInterval = Math.min(interval * 2, BREAKER_MAX_INTERVAL_MS);
    return interval;
  }

  #open(now: number, reason: string, waitMs: number | undefined): void {
    const interval = waitMs === undefined ? this.#takeInterval() : Math.min(Math.max(waitMs, RATE_LIMIT_MIN_WAIT_MS), RATE_LIMIT_MAX_WAIT_MS);
    this.#state = 'open';
    this.#openUntil = now + interval;
    this.#failures = 0;
    this.#probeStartedAt = undefined;
    this.#reason = reason;
  }

  /** The queue gate: whether a call now would go to the forge (closed, or half-open with no probe out). */
  wouldAdmit(): boolean {
    if (!this.#enabled) return true;
    this.#tick(this.#clock.now());
    return this.#state === 'closed' || (this.#state === 'half-open' && this.#probeStartedAt === undefined);
  }

  snapshot(): BreakerSnapshot {
    if (this.#enabled) this.#tick(this.#clock.now());
    return {
      state: this.#state,
      failures: this.#failures,
      retryAt: this.#state === 'open' ? this.#openUntil : undefined,
      reason: this.#reason,
    };
  }
}
