import type { JobRecord } from '../model/records.js';
import type { Conclusion } from '../model/statuses.js';
import { RUN_ADVANCE_CHANNEL } from '../events/run-events.js';
import { toJobRecord } from '../store/mappers.js';
import type { UnitOfWork } from '../store/unit-of-work.js';
import { requestJobCancel } from '../scheduler/concurrency.js';
import { failFast } from '../scheduler/decide.js';
import { moveJob } from '../scheduler/transitions.js';

export type JobOutcome = 'success' | 'failure' | 'cancelled' | 'skipped';

export interface Completion {
  readonly outcome: JobOutcome;
  readonly outputs?: Readonly<Record<string, string>>;
  readonly reason?: string;
  readonly conclusion?: Conclusion;
}

/**
 * Records a job's end: outputs, status and conclusion. Only the runner holding the job may
 * complete it (or anyone, with `runnerId` undefined, for the engine's own timeouts). A failed
 * matrix instance with `fail-fast` cancels its unfinished siblings. Returns false when the job
 * was not this runner's (or already finished): completing twice is harmless.
 */
export async function completeJob(uow: UnitOfWork, job: JobRecord, runnerId: string | undefined, reported: Completion): Promise<boolean> {
  if (job.status !== 'in_progress' && runnerId !== undefined) return false;
  if (runnerId !== undefined && job.runnerId !== runnerId) return false;
  // A job stopped because it ran past timeout-minutes fails with the timeout as its reason.
  const timedOut = reported.outcome === 'cancelled' && job.cancelRequested && job.reason !== null && job.reason.includes('maximum execution time');
  const completion: Completion = timedOut && job.reason !== null ? { ...reported, outcome: 'failure', reason: job.reason } : reported;
  const outputs = completion.outputs ?? {};
  await uow.tx.updateTable('engine_jobs').set({ outputs: JSON.stringify(outputs) }).where('id', '=', job.id).where('status', '=', job.status).execute();
  const moved = await moveJob(uow, job, completion.outcome, {
    reason: completion.reason ?? null,
    conclusion: completion.conclusion ?? completion.outcome,
  });
  if (!moved) return false;
  await uow.event({ type: 'job_completed', run_id: job.runId, job_id: job.id, status: completion.outcome, outputs });
  if (completion.outcome === 'failure' && !job.continueOnError && failFast(job) && isMatrixInstance(job)) {
    const siblings = (await uow.tx.selectFrom('engine_jobs').selectAll().where('run_id', '=', job.runId).where('job_key', '=', job.jobKey).where('id', '!=', job.id).execute()).map(toJobRecord);
    for (const sibling of siblings) await requestJobCancel(uow, sibling);
  }
  uow.notify(RUN_ADVANCE_CHANNEL, String(job.runId));
  return true;
}

function isMatrixInstance(job: JobRecord): boolean {
  return job.matrix !== null && typeof job.matrix === 'object' && !Array.isArray(job.matrix) && Object.keys(job.matrix).length > 0;
}
