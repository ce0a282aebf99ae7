import type { EnvironmentApproval, JobRecord } from '../model/records.js';
import { loadJob, loadRun } from '../store/queries.js';
import type { UnitOfWork } from '../store/unit-of-work.js';
import { APPROVAL_REASON } from './environment-gate.js';

export type ApprovalResult =
  | { readonly kind: 'approved'; readonly job: JobRecord }
  | { readonly kind: 'not_found' }
  /** The job is not waiting for an approval (any more): its current state. */
  | { readonly kind: 'not_waiting'; readonly job: JobRecord };

/**
 * Releases a job its environment's reviewer rule holds, recording the approval as
 * `admin_override` (the system bearer stands in for the reviewer; spec, Authentication rule 14).
 * The caller advances the run afterwards, which queues the job.
 */
export async function approveJob(uow: UnitOfWork, runId: number, jobId: number, by: string, rowLocks: boolean): Promise<ApprovalResult> {
  const run = await loadRun(uow.tx, runId, rowLocks);
  const job = run ? await loadJob(uow.tx, jobId) : undefined;
  if (!run || !job || job.runId !== runId) return { kind: 'not_found' };
  if (job.status !== 'pending' || job.reason !== APPROVAL_REASON) return { kind: 'not_waiting', job };
  const approval: EnvironmentApproval = { kind: 'admin_override', by, at: uow.now };
  const result = await uow.tx
    .updateTable('engine_jobs')
    .set({ reason: 'max_parallel', environment_approval: JSON.stringify(approval), updated_at: uow.now })
    .where('id', '=', jobId)
    .where('status', '=', 'pending')
    .where('reason', '=', APPROVAL_REASON)
    .executeTakeFirst();
  if (result.numUpdatedRows === 0n) return { kind: 'not_waiting', job };
  const environment = job.environment?.name ?? 'its environment';
  await uow.event({ type: 'job_status', run_id: runId, job_id: jobId, status: 'pending', reason: `approved for environment ${environment} (admin_override by ${by})` });
  return { kind: 'approved', job: { ...job, reason: 'max_parallel', environmentApproval: approval } };
}
