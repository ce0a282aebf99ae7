import { ForbiddenError, NotFoundError } from '../../kernel/index.js';
import type { JobRecord } from '../model/records.js';
import { loadJob, loadRun } from '../store/queries.js';
import type { UnitOfWork } from '../store/unit-of-work.js';

/**
 * The job a runner reports for, checked to be that runner's: the one that acquired it
 * (`engine_jobs.runner_id`, kept after the job ends); a re-run clears the runner, so the previous
 * attempt's runner is refused. Whether a report may still come at all is the caller's rule: the
 * runner protocol refuses a finished job's token before it gets here (its auth/job-attempts.ts).
 * Takes the run row lock first (the engine's lock order: run, then its jobs, then its event
 * counter), which also serialises writers of one job on a shared store.
 */
export async function heldJob(uow: UnitOfWork, jobId: number, runnerId: string, rowLocks: boolean): Promise<JobRecord> {
  const found = await loadJob(uow.tx, jobId);
  if (!found) throw new NotFoundError(`job ${jobId} does not exist`, { code: 'job_not_found' });
  await loadRun(uow.tx, found.runId, rowLocks);
  const job = await loadJob(uow.tx, jobId);
  if (!job) throw new NotFoundError(`job ${jobId} does not exist`, { code: 'job_not_found' });
  if (job.runnerId !== runnerId) {
    throw new ForbiddenError(`job ${jobId} is not held by runner '${runnerId}'`, { code: 'job_not_held', details: { job_id: jobId } });
  }
  return job;
}
