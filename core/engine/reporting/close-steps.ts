import type { JobRecord } from '../model/records.js';
import type { UnitOfWork } from '../store/unit-of-work.js';

/**
 * A job the engine ends without its runner (the runner was lost, or the node it reported
 * through died) would keep the steps its runner last reported as running or waiting: the step
 * that was running becomes `cancelled` (it was cut off, it did not fail by itself; the job
 * carries the failure and its reason), steps that had not started become `skipped`, both
 * completed now. Only the job's current attempt; finished steps stay as reported.
 */
export async function closeOpenSteps(uow: UnitOfWork, job: JobRecord): Promise<number> {
  const steps = uow.tx.updateTable('engine_steps').where('job_id', '=', job.id).where('attempt', '=', job.attempt);
  const cut = await steps.set({ status: 'cancelled', conclusion: 'cancelled', completed_at: uow.now }).where('status', '=', 'in_progress').executeTakeFirst();
  const unstarted = await steps.set({ status: 'skipped', conclusion: 'skipped', completed_at: uow.now }).where('status', 'in', ['queued', 'pending']).executeTakeFirst();
  return Number(cut.numUpdatedRows + unstarted.numUpdatedRows);
}
