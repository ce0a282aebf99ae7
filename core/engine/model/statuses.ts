/**
 * Run and job statuses (spec: "Run and job statuses") and the conclusions GitHub reports.
 *
 * - `pending`: not runnable yet: waiting for `needs`, a concurrency slot, `max-parallel`, a gate
 *   a policy plugin holds on the run (fork approval), or the job's environment (its wait timer,
 *   its reviewer); `reason` says which.
 * - `queued`: runnable, waiting for a runner with matching labels.
 * - `in_progress`: a runner holds it (a lease it renews).
 * - `success`, `failure`, `cancelled`, `skipped`: terminal.
 */
export const STATUSES = ['queued', 'pending', 'in_progress', 'success', 'failure', 'cancelled', 'skipped'] as const;
export type Status = (typeof STATUSES)[number];

export const TERMINAL_STATUSES: ReadonlySet<Status> = new Set(['success', 'failure', 'cancelled', 'skipped']);

export function isTerminal(status: Status): boolean {
  return TERMINAL_STATUSES.has(status);
}

/** GitHub's conclusion vocabulary (Checks and Actions APIs). */
export type Conclusion = 'success' | 'failure' | 'cancelled' | 'skipped' | 'timed_out' | 'neutral' | 'action_required';

/** The result a `needs` context reports for a job (`needs.<id>.result`). */
export type JobResult = 'success' | 'failure' | 'cancelled' | 'skipped';

/** GitHub's three-state status for forge-shaped listings. */
export function forgeStatus(status: Status): 'queued' | 'in_progress' | 'completed' | 'pending' {
  if (isTerminal(status)) return 'completed';
  return status as 'queued' | 'pending' | 'in_progress';
}

/** Why a job is pending. */
export type PendingReason = 'needs' | 'concurrency' | 'max_parallel' | 'environment_wait_timer' | 'environment_approval' | `gate:${string}`;
