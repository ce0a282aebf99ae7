/**
 * The durations of the legacy session flow. Defaults follow what the official runner expects
 * (RUNNER-PROTOCOL.md §2.2-§2.7); tests shorten them through the plugin's options.
 */
export interface LegacyFlowTimings {
  /** How long `GET messages` holds before answering empty (§2.3.1: ~50 s; the runner gives up at 60 s). */
  readonly pollHoldMs: number;
  /**
   * A session not polled for this long expires. Shorter than the runner's 4 minutes of retries on
   * a session conflict (§2.2), so a listener that died without deleting its session does not keep
   * its restarted successor out; longer than a hold plus the runner's back-off between polls.
   */
  readonly sessionLeaseMs: number;
  /**
   * The lease a job is claimed with when it is put in a message: long enough for a dropped poll to
   * be re-polled and the first lock renewal to arrive (§2.7: up to 5 attempts, 1-10 s apart).
   */
  readonly deliveryLeaseMs: number;
  /**
   * The lock each renewal extends. The runner renews every 60 s (§2.7), and retries a failed
   * renewal 5-15 s later: 90 s (not GitHub's ~10 min) lets a job whose runner is really gone
   * fail within about a minute and a half, with the engine's reconnect grace after a restart.
   */
  readonly jobLockMs: number;
  /** While a runner holds a job, its poll re-reads the job this often (cancellation without a wake-up). */
  readonly busyRecheckMs: number;
  /** `timeout` of a JobCancellation (§4.9: the runner kills the job max(timeout, 60 s) - 15 s after). */
  readonly cancelTimeoutMs: number;
  /** How often the sweeper ends expired sessions (one timer per node, not per runner). */
  readonly sweepIntervalMs: number;
  /**
   * How long a job record the Listener PATCHed completed waits for the Worker's `JobCompleted`
   * before the job is completed from the record alone (a crashed Worker; worker-api
   * job-record-completion.ts): the runner's JobCompleted retries take up to 5 x 5 s.
   */
  readonly jobRecordGraceMs: number;
}

export const DEFAULT_TIMINGS: LegacyFlowTimings = {
  pollHoldMs: 50_000,
  sessionLeaseMs: 150_000,
  deliveryLeaseMs: 120_000,
  jobLockMs: 90_000,
  busyRecheckMs: 5_000,
  cancelTimeoutMs: 300_000,
  sweepIntervalMs: 30_000,
  jobRecordGraceMs: 30_000,
};

export function legacyFlowTimings(overrides: Partial<LegacyFlowTimings> = {}): LegacyFlowTimings {
  const timings = { ...DEFAULT_TIMINGS, ...overrides };
  for (const [name, value] of Object.entries(timings)) {
    if (!Number.isFinite(value) || value <= 0) throw new RangeError(`runner-protocol timing '${name}' must be a positive number of milliseconds, got ${value}`);
  }
  return timings;
}
