/**
 * The listener's waits, as the official runner has them (RUNNER-PROTOCOL.md §2.2-§2.8, §6.6).
 * Tests shorten them; operators can change the job wind-down on stop with
 * `SVC_RUNNER_STOP_GRACE_SECONDS` and the IPC send timeout with `GITHUB_ACTIONS_RUNNER_CHANNEL_TIMEOUT`.
 */
export interface ListenerTimings {
  /** Between session attempts (30 s). */
  readonly sessionRetryMs: number;
  /** Session conflicts are retried this long, then exit code 5 (4 min). */
  readonly sessionConflictLimitMs: number;
  /** OAuth clock-skew errors are retried this long (30 min). */
  readonly clockSkewLimitMs: number;
  /** Poll errors: back-off for the first five (15–30 s), then the longer one (30–60 s). */
  readonly pollBackoffMs: readonly [number, number];
  readonly pollBackoffLongMs: readonly [number, number];
  /** The broker listener gives up after this many consecutive failures (10). */
  readonly brokerMaxFailures: number;
  /** An ephemeral runner stops polling after this long without reaching the server (15 min). */
  readonly ephemeralUnreachableMs: number;
  /** More than 50 quick empty polls within 30 minutes add a 15–30 s pause. */
  readonly emptyPollPauseMs: readonly [number, number];
  /** Lock renewal: every 60 s; the first renewal 5 attempts 1–10 s apart; later errors 5–15 s, 15–30 s after five, until lockedUntil + 5 min. */
  readonly renewIntervalMs: number;
  readonly firstRenewBackoffMs: readonly [number, number];
  readonly renewBackoffMs: readonly [number, number];
  readonly renewBackoffLongMs: readonly [number, number];
  readonly renewGraceMs: number;
  /** The worker must take a message within this (30 s, clamped 30–300 s). */
  readonly channelTimeoutMs: number;
  /** A running job's wind-down when the runner is stopped (SPEC: 60 s). */
  readonly stopGraceMs: number;
  /** A server cancel kills the worker max(timeout, 60 s) − 15 s after it. */
  readonly cancelMinimumMs: number;
  readonly cancelKillMarginMs: number;
  /** Listener-side completion: 5 attempts, 5 s apart. */
  readonly finishAttempts: number;
  readonly finishRetryMs: number;
  /** acquirejob 404/409/422: exponential throttle from 1 s to 60 s; other errors 5 attempts 5–15 s apart. */
  readonly acquireThrottleMaxMs: number;
  readonly acquireBackoffMs: readonly [number, number];
}

export const DEFAULT_TIMINGS: ListenerTimings = {
  sessionRetryMs: 30_000,
  sessionConflictLimitMs: 240_000,
  clockSkewLimitMs: 30 * 60_000,
  pollBackoffMs: [15_000, 30_000],
  pollBackoffLongMs: [30_000, 60_000],
  brokerMaxFailures: 10,
  ephemeralUnreachableMs: 15 * 60_000,
  emptyPollPauseMs: [15_000, 30_000],
  renewIntervalMs: 60_000,
  firstRenewBackoffMs: [1000, 10_000],
  renewBackoffMs: [5000, 15_000],
  renewBackoffLongMs: [15_000, 30_000],
  renewGraceMs: 5 * 60_000,
  channelTimeoutMs: 30_000,
  stopGraceMs: 60_000,
  cancelMinimumMs: 60_000,
  cancelKillMarginMs: 15_000,
  finishAttempts: 5,
  finishRetryMs: 5000,
  acquireThrottleMaxMs: 60_000,
  acquireBackoffMs: [5000, 15_000],
};

/** The defaults with the environment's overrides. */
export function timingsFromEnv(env: NodeJS.ProcessEnv): ListenerTimings {
  const grace = seconds(env['SVC_RUNNER_STOP_GRACE_SECONDS'], 'SVC_RUNNER_STOP_GRACE_SECONDS');
  const channel = seconds(env['GITHUB_ACTIONS_RUNNER_CHANNEL_TIMEOUT'], 'GITHUB_ACTIONS_RUNNER_CHANNEL_TIMEOUT');
  return {
    ...DEFAULT_TIMINGS,
    ...(grace === undefined ? {} : { stopGraceMs: grace * 1000 }),
    ...(channel === undefined ? {} : { channelTimeoutMs: Math.min(Math.max(channel, 30), 300) * 1000 }),
  };
}

function seconds(value: string | undefined, name: string): number | undefined {
  if (value === undefined || value.trim() === '') return undefined;
  const parsed = Number(value);
  if (!Number.isFinite(parsed) || parsed < 0) throw new Error(`${name} must be a number of seconds, got '${value}'`);
  return parsed;
}
