import type { JobRecord } from '../model/records.js';
import type { NewJob } from '../runs/create-run.js';
import { nextIds } from '../store/sequences.js';
import type { UnitOfWork } from '../store/unit-of-work.js';

/**
 * Puts the expanded instances of a deferred job in place of its stand-ins: a stand-in with the
 * same instance id is updated (its id and history stay), new instances are inserted, and
 * stand-ins the expansion no longer has are removed (they never ran). Every instance comes out
 * ready, to be released by max-parallel and its concurrency group like any other.
 */
export async function replaceStandIns(uow: UnitOfWork, standIn: JobRecord, jobs: readonly NewJob[]): Promise<void> {
  const { tx, now } = uow;
  const existing = await tx.selectFrom('engine_jobs').select(['id', 'instance_id']).where('run_id', '=', standIn.runId).where('job_key', '=', standIn.jobKey).where('deferred', '=', 1).execute();
  const byInstance = new Map(existing.map((row) => [row.instance_id, Number(row.id)]));
  const fields = (job: NewJob) => ({
    name: job.name,
    matrix: JSON.stringify(job.matrix),
    strategy: JSON.stringify(job.strategy),
    runs_on: JSON.stringify(job.runsOn),
    continue_on_error: job.continueOnError ? 1 : 0,
    timeout_minutes: job.timeoutMinutes,
    concurrency_group: job.concurrency?.group ?? null,
    cancel_in_progress: job.concurrency?.cancelInProgress ? 1 : 0,
    concurrency_queue: job.concurrency?.queue ?? 'single',
    concurrency_ticket: null,
    deferred: 0,
    environment: job.environment?.name ?? null,
    environment_url: job.environment?.url ?? null,
    reason: 'max_parallel',
    updated_at: now,
  });
  const fresh = jobs.filter((job) => !byInstance.has(job.instanceId));
  let nextId = fresh.length > 0 ? await nextIds(tx, 'jobs', fresh.length) : 0;
  for (const job of jobs) {
    const id = byInstance.get(job.instanceId);
    if (id !== undefined) {
      await tx.updateTable('engine_jobs').set(fields(job)).where('id', '=', id).where('status', '=', 'pending').execute();
      continue;
    }
    await tx
      .insertInto('engine_jobs')
      .values({
        ...fields(job),
        id: nextId++,
        run_id: standIn.runId,
        job_key: standIn.jobKey,
        instance_id: job.instanceId,
        needs: JSON.stringify(standIn.needs),
        if_condition: standIn.ifCondition,
        status: 'pending',
        conclusion: null,
        outputs: '{}',
        attempt: standIn.attempt,
        runner_id: null,
        runner_name: null,
        lease_owner: null,
        lease_expires_at: null,
        cancel_requested: 0,
        created_at: now,
        queued_at: null,
        started_at: null,
        completed_at: null,
      })
      .execute();
  }
  const kept = new Set(jobs.map((job) => job.instanceId));
  const gone = existing.filter((row) => !kept.has(row.instance_id)).map((row) => Number(row.id));
  if (gone.length > 0) await tx.deleteFrom('engine_jobs').where('id', 'in', gone).execute();
}
