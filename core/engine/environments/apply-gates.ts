import type { JobRecord, RunRecord } from '../model/records.js';
import type { UnitOfWork } from '../store/unit-of-work.js';
import { holdJob, moveJob } from '../scheduler/transitions.js';
import { APPROVAL_REASON, environmentGate, WAIT_TIMER_REASON, waitingText, type EnvironmentRules } from './environment-gate.js';

/**
 * Puts the ready jobs of an environment through its rules (environment-gate.ts), in the caller's
 * transaction: a ref the rule does not allow fails the job; a wait timer holds it (its end in the
 * store, so any node's pass releases it after a restart); a reviewer rule holds it until it is
 * approved. Each hold writes a `job_status` event (`pending`, with the reason people read).
 * Answers whether a job changed, and whether one failed (its dependants may now be decided).
 */
export async function applyEnvironmentGates(uow: UnitOfWork, run: RunRecord, jobs: readonly JobRecord[], rules: EnvironmentRules): Promise<{ changed: boolean; failed: boolean }> {
  let failed = false;
  let changed = false;
  for (const job of jobs) {
    if (job.status !== 'pending' || job.environment === null) continue;
    if (job.reason !== 'max_parallel' && job.reason !== WAIT_TIMER_REASON) continue;
    const verdict = environmentGate(run, job, rules(run.repository, job.environment.name), uow.now);
    switch (verdict.kind) {
      case 'pass':
        if (job.reason !== WAIT_TIMER_REASON) break;
        await holdJob(uow, job, 'max_parallel');
        changed = true;
        break;
      case 'timer_running':
        break;
      case 'fail':
        if (await moveJob(uow, job, 'failure', { reason: verdict.reason })) failed = changed = true;
        break;
      case 'start_timer':
        await hold(uow, job, WAIT_TIMER_REASON, waitingText(job, verdict.until), verdict.until);
        changed = true;
        break;
      case 'approval':
        await hold(uow, job, APPROVAL_REASON, waitingText(job, null));
        changed = true;
        break;
    }
  }
  return { changed, failed };
}

async function hold(uow: UnitOfWork, job: JobRecord, reason: string, text: string, waitUntil?: number): Promise<void> {
  const result = await uow.tx
    .updateTable('engine_jobs')
    .set({ reason, updated_at: uow.now, ...(waitUntil === undefined ? {} : { environment_wait_until: waitUntil }) })
    .where('id', '=', job.id)
    .where('status', '=', 'pending')
    .where('reason', '=', job.reason ?? '')
    .executeTakeFirst();
  if (result.numUpdatedRows === 0n) return;
  await uow.event({ type: 'job_status', run_id: job.runId, job_id: job.id, status: 'pending', reason: text });
}
