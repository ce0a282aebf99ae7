import type { JobRecord, RunRecord } from '../model/records.js';
import { RUN_ADVANCE_CHANNEL } from '../events/run-events.js';
import { toJobRecord, toRunRecord } from '../store/mappers.js';
import { nextIds } from '../store/sequences.js';
import type { UnitOfWork } from '../store/unit-of-work.js';
import { moveJob } from './transitions.js';

const ACTIVE = ['queued', 'in_progress'] as const;

/** GitHub's limit of waiters in a group with `queue: max`. */
export const QUEUE_MAX = 100;

/** What a run or job entering its concurrency group may do now. */
export type GroupVerdict =
  /** Start: nothing in the group runs, and it is first in line. */
  | 'released'
  /** Wait (pending, reason `concurrency`). */
  | 'waiting'
  /** Cancelled: the group's queue was full. */
  | 'cancelled';

/** What a waiter in a group is, to the rules below. */
interface Waiter {
  readonly id: number;
  readonly status: string;
  readonly reason: string | null;
  readonly concurrencyTicket: number | null;
}

/**
 * Concurrency groups as GitHub runs them: in a group at most one run (or job) is active. With
 * `queue: single` (the default) at most one waits: a newcomer replaces those waiting (they are
 * cancelled) and, with `cancel-in-progress`, also cancels the active one. With `queue: max` up to
 * QUEUE_MAX wait and start one at a time in the order they began waiting (their ticket); a
 * newcomer finding QUEUE_MAX waiting is itself cancelled ("When the queue is full, any additional
 * jobs or workflow runs are canceled"). The newcomer's own setting decides, so a `single` one
 * arriving in a group others queue in replaces all of them.
 */
export async function releaseRunConcurrency(uow: UnitOfWork, run: RunRecord): Promise<GroupVerdict> {
  const group = run.concurrencyGroup;
  if (group === null) return 'released';
  const ticket = run.concurrencyTicket ?? (await takeTicket(uow, 'engine_runs', run.id));
  const others = (await uow.tx.selectFrom('engine_runs').selectAll().where('concurrency_group', '=', group).where('id', '!=', run.id).execute()).map(toRunRecord);
  const ahead = waitingAhead(others, ticket, run.id);
  if (run.concurrencyQueue === 'single') {
    for (const waiting of ahead) await cancelWaitingRun(uow, waiting, replacedReason(group));
  } else if (ahead.length >= QUEUE_MAX) {
    await cancelWaitingRun(uow, run, queueFullReason(group, 'runs'));
    return 'cancelled';
  }
  const active = others.filter((o) => o.status === 'queued' || o.status === 'in_progress' || (o.status === 'pending' && o.reason !== 'concurrency'));
  if (run.cancelInProgress) {
    for (const other of active) await requestRunCancel(uow, other);
  }
  if (active.length > 0 || (run.concurrencyQueue === 'max' && ahead.length > 0)) return 'waiting';
  await uow.tx.updateTable('engine_runs').set({ reason: null, updated_at: uow.now }).where('id', '=', run.id).execute();
  return 'released';
}

export async function releaseJobConcurrency(uow: UnitOfWork, job: JobRecord): Promise<GroupVerdict> {
  const group = job.concurrencyGroup;
  if (group === null) return 'released';
  const ticket = job.concurrencyTicket ?? (await takeTicket(uow, 'engine_jobs', job.id));
  const others = (await uow.tx.selectFrom('engine_jobs').selectAll().where('concurrency_group', '=', group).where('id', '!=', job.id).execute()).map(toJobRecord);
  const ahead = waitingAhead(others, ticket, job.id);
  if (job.concurrencyQueue === 'single') {
    for (const waiting of ahead) {
      await moveJob(uow, waiting, 'cancelled', { reason: replacedReason(group) });
      uow.notify(RUN_ADVANCE_CHANNEL, String(waiting.runId));
    }
  } else if (ahead.length >= QUEUE_MAX) {
    await moveJob(uow, job, 'cancelled', { reason: queueFullReason(group, 'jobs') });
    return 'cancelled';
  }
  const active = others.filter((o) => (ACTIVE as readonly string[]).includes(o.status));
  if (job.cancelInProgress) {
    for (const other of active) await requestJobCancel(uow, other);
  }
  return active.length > 0 || (job.concurrencyQueue === 'max' && ahead.length > 0) ? 'waiting' : 'released';
}

function replacedReason(group: string): string {
  return `Canceling since a higher priority waiting request for '${group}' exists`;
}

function queueFullReason(group: string, what: 'runs' | 'jobs'): string {
  return `Canceling since the concurrency group '${group}' already has ${QUEUE_MAX} pending ${what} (queue: max holds at most ${QUEUE_MAX})`;
}

/**
 * Those of `others` waiting on the group that began waiting before the one holding `ticket`
 * (ticket order; a waiter from before tickets existed counts as first; ties by id).
 */
function waitingAhead<T extends Waiter>(others: readonly T[], ticket: number, id: number): T[] {
  const place = (waiter: Waiter): number => waiter.concurrencyTicket ?? 0;
  return others.filter((o) => o.status === 'pending' && o.reason === 'concurrency' && (place(o) < ticket || (place(o) === ticket && o.id < id)));
}

/** Gives a run or job its place in its group's line, once: when it first meets the group. */
async function takeTicket(uow: UnitOfWork, table: 'engine_runs' | 'engine_jobs', id: number): Promise<number> {
  const ticket = await nextIds(uow.tx, 'concurrency_tickets');
  await uow.tx.updateTable(table).set({ concurrency_ticket: ticket }).where('id', '=', id).execute();
  return ticket;
}

/** Cancels a run that has not started: all its unfinished jobs are cancelled at once. */
export async function cancelWaitingRun(uow: UnitOfWork, run: RunRecord, reason: string | null): Promise<void> {
  const jobs = (await uow.tx.selectFrom('engine_jobs').selectAll().where('run_id', '=', run.id).execute()).map(toJobRecord);
  for (const job of jobs) if (job.status === 'pending' || job.status === 'queued') await moveJob(uow, job, 'cancelled', { reason });
  const moved = await uow.tx
    .updateTable('engine_runs')
    .set({ status: 'cancelled', conclusion: 'cancelled', cancel_requested: 1, reason, updated_at: uow.now, completed_at: uow.now })
    .where('id', '=', run.id)
    .where('status', '=', run.status)
    .executeTakeFirst();
  if (moved.numUpdatedRows > 0n) await uow.event({ type: 'run_status', run_id: run.id, status: 'cancelled', ...(reason === null ? {} : { reason }) });
}

/**
 * Asks a run to stop: jobs not yet handed to a runner are cancelled unless their `if:` still
 * holds on cancellation (the scheduler re-decides them with `cancelled()` true); jobs running
 * get a cancel request their runner picks up on its next lock renewal. A run still waiting on
 * its concurrency group never started: it is cancelled at once and leaves the line.
 */
export async function requestRunCancel(uow: UnitOfWork, run: RunRecord): Promise<void> {
  if (run.status === 'pending' && run.reason === 'concurrency') {
    await cancelWaitingRun(uow, run, null);
    uow.notify(RUN_ADVANCE_CHANNEL, String(run.id));
    return;
  }
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

/**
 * The runs to advance when these groups may have freed: per group, the run at the head of its
 * line (the waiting run, or the run of the waiting job, with the lowest ticket). Only the head
 * can start; the others wait for it, and are reached when it frees the group in turn.
 */
export async function groupWaiters(uow: UnitOfWork, groups: readonly (string | null)[]): Promise<number[]> {
  const named = groups.filter((g): g is string => g !== null);
  if (named.length === 0) return [];
  const runs = await uow.tx
    .selectFrom('engine_runs')
    .select(['id', 'concurrency_group', 'concurrency_ticket'])
    .where('concurrency_group', 'in', named)
    .where('status', '=', 'pending')
    .where('reason', '=', 'concurrency')
    .execute();
  const jobs = await uow.tx
    .selectFrom('engine_jobs')
    .select(['id', 'run_id', 'concurrency_group', 'concurrency_ticket'])
    .where('concurrency_group', 'in', named)
    .where('status', '=', 'pending')
    .where('reason', '=', 'concurrency')
    .execute();
  // Run groups and job groups are separate lines.
  const waiters = [
    ...runs.map((row) => ({ line: `run:${row.concurrency_group ?? ''}`, ticket: row.concurrency_ticket, id: Number(row.id), runId: Number(row.id) })),
    ...jobs.map((row) => ({ line: `job:${row.concurrency_group ?? ''}`, ticket: row.concurrency_ticket, id: Number(row.id), runId: Number(row.run_id) })),
  ];
  const heads = new Map<string, { readonly place: number; readonly id: number; readonly runId: number }>();
  for (const waiter of waiters) {
    const candidate = { place: Number(waiter.ticket ?? 0), id: waiter.id, runId: waiter.runId };
    const head = heads.get(waiter.line);
    if (head === undefined || candidate.place < head.place || (candidate.place === head.place && candidate.id < head.id)) heads.set(waiter.line, candidate);
  }
  return [...new Set([...heads.values()].map((head) => head.runId))].sort((a, b) => a - b);
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
