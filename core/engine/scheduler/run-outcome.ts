import type { JobRecord } from '../model/records.js';
import type { Conclusion, Status } from '../model/statuses.js';
import { isTerminal } from '../model/statuses.js';
import { effectiveResult } from './needs.js';

/**
 * A run's status from its jobs. Terminal when every job is: `failure` if any job failed
 * (without continue-on-error), else `cancelled` if the run or any job was cancelled, else
 * `success` (all skipped counts as success, as GitHub shows a run whose jobs were all skipped).
 * Otherwise `in_progress` once any job of this attempt started, `queued` while some job waits for a runner,
 * `pending` while every job is held.
 */
export function runStatusFrom(jobs: readonly JobRecord[], cancelled: boolean, attempt = 1): { status: Status; conclusion: Conclusion | null } {
  if (jobs.length > 0 && jobs.every((job) => isTerminal(job.status))) {
    const results = jobs.map(effectiveResult);
    if (results.includes('failure')) return { status: 'failure', conclusion: 'failure' };
    if (cancelled || results.includes('cancelled')) return { status: 'cancelled', conclusion: 'cancelled' };
    return { status: 'success', conclusion: 'success' };
  }
  if (jobs.length === 0) return { status: cancelled ? 'cancelled' : 'success', conclusion: cancelled ? 'cancelled' : 'success' };
  // Jobs kept from an earlier attempt (a re-run of some jobs) do not make this attempt started.
  const started = (job: JobRecord) => job.status === 'in_progress' || (isTerminal(job.status) && job.status !== 'skipped' && job.attempt >= attempt);
  if (jobs.some(started)) return { status: 'in_progress', conclusion: null };
  if (jobs.some((job) => job.status === 'queued')) return { status: 'queued', conclusion: null };
  return { status: 'pending', conclusion: null };
}
