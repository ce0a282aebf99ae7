import type { JobRecord } from '../model/records.js';
import type { Conclusion, Status } from '../model/statuses.js';
import { JOBS_QUEUED_CHANNEL } from '../events/run-events.js';
import type { UnitOfWork } from '../store/unit-of-work.js';

/**
 * Job state changes as conditional updates: a change applies only if the job is still in the
 * state the caller saw, so two nodes deciding at once never both move it. Each applied change
 * writes its `job_status` event.
 */
export async function moveJob(
  uow: UnitOfWork,
  job: JobRecord,
  to: Status,
  options: { readonly reason?: string | null; readonly conclusion?: Conclusion | null } = {},
): Promise<boolean> {
  const { tx, now } = uow;
  const terminal = to === 'success' || to === 'failure' || to === 'cancelled' || to === 'skipped';
  const result = await tx
    .updateTable('engine_jobs')
    .set({
      status: to,
      reason: options.reason ?? null,
      updated_at: now,
      ...(to === 'queued' ? { queued_at: now } : {}),
      ...(terminal ? { conclusion: options.conclusion ?? to, completed_at: now, lease_owner: null, lease_expires_at: null } : {}),
    })
    .where('id', '=', job.id)
    .where('status', '=', job.status)
    .executeTakeFirst();
  if (result.numUpdatedRows === 0n) return false;
  const reason = options.reason ?? undefined;
  await uow.event({ type: 'job_status', run_id: job.runId, job_id: job.id, status: to, ...(reason ? { reason } : {}) });
  if (to === 'queued') uow.notify(JOBS_QUEUED_CHANNEL);
  return true;
}

/** Keeps a job pending but records a new reason (no event: the status did not change). */
export async function holdJob(uow: UnitOfWork, job: JobRecord, reason: string): Promise<void> {
  if (job.reason === reason) return;
  await uow.tx.updateTable('engine_jobs').set({ reason, updated_at: uow.now }).where('id', '=', job.id).where('status', '=', 'pending').execute();
}
