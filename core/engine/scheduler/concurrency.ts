import type { JobRecord, RunRecord } from '../model/records.js';
import { RUN_ADVANCE_CHANNEL } from '../events/run-events.js';
import { toJobRecord, toRunRecord } from '../store/mappers.js';
import type { UnitOfWork } from '../store/unit-of-work.js';
import { moveJob } from './transitions.js';

const ACTIVE = ['queued', 'in_progress'] as const;

/**
 * Concurrency groups as GitHub runs them: in a group at most one run (or job) is active and at
 * most one waits. A newcomer replaces the one waiting (which is cancelled), and with
 * `cancel-in-progress` also cancels the active one; it starts once the group is free.
 * Returns whether the newcomer may start now.
 */
export async function releaseRunConcurrency(uow: UnitOfWork, run: RunRecord): Promise<boolean> {
  const group = run.concurrencyGroup;
  if (group === null) return true;
  const others = (await uow.tx.selectFrom('engine_runs').selectAll().where('concurrency_group', '=', group).where('id', '!=', run.id).execute()).map(toRunRecord);
  for (const waiting of others.filter((o) => o.status === 'pending' && o.reason === 'concurrency' && o.id < run.id)) {
    await cancelWaitingRun(uow, waiting, `Canceling since a higher priority waiting request for '${group}' exists`);
  }
  const active = others.filter((o) => o.status === 'queued' || o.status === 'in_progress' || (o.status === 'pending' && o.reason !== 'concurrency'));
  if (run.cancelInProgress) {
    for (const other of active) await requestRunCancel(uow, other);
  }
  if (active.length > 0) return false;
  await uow.tx.updateTable('engine_runs').set({ reason: null, updated_at: uow.now }).where('id', '=', run.id).execute();
  return true;
}

export async function releaseJobConcurrency(uow: UnitOfWork, job: JobRecord): Promise<boolean> {
  const group = job.concurrencyGroup;
  if (group === null) return true;
  const others = (await uow.tx.selectFrom('engine_jobs').selectAll().where('concurrency_group', '=', group).where('id', '!=', job.id).execute()).map(toJobRecord);
  for (const waiting of others.filter((o) => o.status === 'pending' && o.reason === 'concurrency' && o.id < job.id)) {
    await moveJob(uow, waiting, 'cancelled', { reason: `Canceling since a higher priority waiting request for '${group}' exists` });
    uow.notify(RUN_ADVANCE_CHANNEL, String(waiting.runId));
  }
  const active = others.filter((o) => (ACTIVE as readonly string[]).includes(o.status));
  if (job.cancelInProgress) {
    for (const other of active) await requestJobCancel(uow, other);
  }
  return active.length === 0;
}

/** Cancels a run that has not started: all its unfinished jobs are cancelled at once. */
export async function cancelWaitingRun(uow: UnitOfWork, run: RunRecord, reason: string): Promise<void> {
  const jobs = (await uow.tx.selectFrom('engine_jobs').selectAll().where('run_id', '=', run.id).execute()).map(toJobRecord);
  for (const job of jobs) if (job.status === 'pending' || job.status === 'queued') await moveJob(uow, job, 'cancelled', { reason });
  const moved = await uow.tx
    .updateTable('engine_runs')
    .set({ status: 'cancelled', conclusion: 'cancelled', cancel_requested: 1, reason, updated_at: uow.now, completed_at: uow.now })
    .where('id', '=', run.id)
    .where('status', '=', run.status)
    .executeTakeFirst();
  if (moved.numUpdatedRows > 0n) await uow.event({ type: 'run_status', run_id: run.id, status: 'cancelled', reason });
}

/**
 * Asks a run to stop: jobs not yet handed to a runner are cancelled unless their `if:` still
 * holds on cancellation (the scheduler re-decides them with `cancelled()` true); jobs running
 * get a cancel request their runner picks up on its next lock renewal.
 */
export async function requestRunCancel(uow: UnitOfWork, run: RunRecord): Promise<void> {
  await uow.tx.updateTable('engine_runs').set({ cancel_requested: 1, updated_at: uow.now }).where('id', '=', run.id).execute();
  const jobs = (await uow.tx.selectFrom('engine_jobs').selectAll().where('run_id', '=', run.id).execute()).map(toJobRecord);
  for (const job of jobs) {
    if (job.status === 'queued' || (job.status === 'pending' && job.reason !== 'needs')) await moveJob(uow, job, 'cancelled');
    else if (job.status === 'in_progress') await requestJobCancel(uow, job);
  }
  uow.notify(RUN_ADVANCE_CHANNEL, String(run.id));
}

export async function requestJobCancel(uow: UnitOfWork, job: JobRecord): Promise<void> {
  if (job.status === 'queued' || job.status === 'pending') {
    await moveJob(uow, job, 'cancelled');
    uow.notify(RUN_ADVANCE_CHANNEL, String(job.runId));
    return;
  }
  if (job.status !== 'in_progress' || job.cancelRequested) return;
  await uow.tx.updateTable('engine_jobs').set({ cancel_requested: 1, updated_at: uow.now }).where('id', '=', job.id).execute();
}

/** Runs that wait on one of these groups (a waiting run, or a run with a waiting job). */
export async function groupWaiters(uow: UnitOfWork, groups: readonly (string | null)[]): Promise<number[]> {
  const named = groups.filter((g): g is string => g !== null);
  if (named.length === 0) return [];
  const runs = await uow.tx.selectFrom('engine_runs').select('id').where('concurrency_group', 'in', named).where('status', '=', 'pending').where('reason', '=', 'concurrency').execute();
  const jobs = await uow.tx.selectFrom('engine_jobs').select('run_id').where('concurrency_group', 'in', named).where('status', '=', 'pending').where('reason', '=', 'concurrency').execute();
  return [...new Set([...runs.map((r) => Number(r.id)), ...jobs.map((j) => Number(j.run_id))])].sort((a, b) => a - b);
}

/** A run held behind a gate that closed: its jobs never ran, so they end cancelled and the run fails. */
export async function failHeldRun(uow: UnitOfWork, run: RunRecord, reason: string): Promise<void> {
  const jobs = (await uow.tx.selectFrom('engine_jobs').selectAll().where('run_id', '=', run.id).execute()).map(toJobRecord);
  for (const job of jobs) if (job.status === 'pending' || job.status === 'queued') await moveJob(uow, job, 'cancelled', { reason });
  const moved = await uow.tx
    .updateTable('engine_runs')
    .set({ status: 'failure', conclusion: 'failure', reason, updated_at: uow.now, completed_at: uow.now })
    .where('id', '=', run.id)
    .where('status', '=', run.status)
    .executeTakeFirst();
  if (moved.numUpdatedRows > 0n) await uow.event({ type: 'run_status', run_id: run.id, status: 'failure', reason });
}
