import type { Clock } from '../../ports/index.js';
import type { Logger } from '../../kernel/index.js';
import type { RunRecord } from '../model/records.js';
import { closeOpenSteps } from '../reporting/close-steps.js';
import { completeJob } from '../reporting/complete-job.js';
import type { EngineDb } from '../store/engine-db.js';
import { toJobRecord } from '../store/mappers.js';
import { loadJob, loadRun } from '../store/queries.js';
import type { UnitOfWork } from '../store/unit-of-work.js';
import { failDeadNodesJobs } from './dead-node-jobs.js';
import { lostRunnerReason, timeoutReason } from './reasons.js';
import { WAIT_TIMER_REASON } from '../environments/index.js';

export interface SweepReport {
  readonly lostJobs: number;
  /** Jobs failed because the node their runner reported through died (dead-node-jobs.ts). */
  readonly deadNodeJobs: number;
  readonly timedOut: number;
  /** Runs advanced because an environment's wait timer of one of their jobs ended. */
  readonly environmentTimers: number;
  readonly advancedRuns: number;
}

export interface SweepDependencies {
  readonly db: EngineDb;
  /** This node's id (never judged dead by its own sweep). */
  readonly nodeId: string;
  readonly clock: Clock;
  readonly tx: <T>(work: (uow: UnitOfWork) => Promise<T>) => Promise<T>;
  readonly advance: (uow: UnitOfWork, runId: number) => Promise<RunRecord | undefined>;
  readonly rowLocks: boolean;
  readonly logger: Logger;
}

const STALE_MS = 5000;
const BATCH = 100;

/**
 * Periodic repairs, safe to run on every node at once (each change is conditional):
 * jobs whose runner's lease expired fail, and so do jobs whose runner was last heard through a
 * node that died and not since (dead-node-jobs.ts), their open steps closed either way; jobs past `timeout-minutes` get a cancel request
 * (their runner stops them and completes them; if it never does, the lease path fails them);
 * runs whose environment wait timer ended are advanced (the job goes on to its approval or the queue);
 * runs with waiting jobs not touched for a while are scheduled again, so a lost wake-up only
 * costs latency.
 */
export async function sweep(deps: SweepDependencies): Promise<SweepReport> {
  const now = deps.clock.now();
  const lost = (await deps.db.selectFrom('engine_jobs').selectAll().where('status', '=', 'in_progress').where('lease_expires_at', '<', now).limit(BATCH).execute()).map(toJobRecord);
  let lostJobs = 0;
  for (const job of lost) {
    const done = await deps.tx(async (uow) => {
      await loadRun(uow.tx, job.runId, deps.rowLocks);
      const current = await loadJob(uow.tx, job.id);
      if (!current || current.status !== 'in_progress' || (current.leaseExpiresAt ?? 0) >= now) return false;
      const moved = await completeJob(uow, current, undefined, { outcome: 'failure', reason: lostRunnerReason(job.runnerName) });
      if (!moved) return false;
      await closeOpenSteps(uow, current);
      await deps.advance(uow, job.runId);
      return true;
    });
    if (done) lostJobs++;
  }
  const deadNodeJobs = await failDeadNodesJobs({ db: deps.db, nodeId: deps.nodeId, now, tx: deps.tx, advance: deps.advance, rowLocks: deps.rowLocks });

  const running = (await deps.db.selectFrom('engine_jobs').selectAll().where('status', '=', 'in_progress').where('cancel_requested', '=', 0).limit(1000).execute()).map(toJobRecord);
  let timedOut = 0;
  for (const job of running) {
    if (job.startedAt === null || job.startedAt + job.timeoutMinutes * 60_000 > now) continue;
    const result = await deps.db
      .updateTable('engine_jobs')
      .set({ cancel_requested: 1, reason: timeoutReason(job.runnerName, job.timeoutMinutes), updated_at: now })
      .where('id', '=', job.id)
      .where('status', '=', 'in_progress')
      .where('cancel_requested', '=', 0)
      .executeTakeFirst();
    if (result.numUpdatedRows > 0n) timedOut++;
  }

  // Wait timers that ended: their runs are advanced now, on whichever node sweeps first.
  const timers = await deps.db
    .selectFrom('engine_jobs')
    .select('run_id')
    .distinct()
    .where('status', '=', 'pending')
    .where('reason', '=', WAIT_TIMER_REASON)
    .where('environment_wait_until', '<=', now)
    .limit(BATCH)
    .execute();
  for (const { run_id: runId } of timers) await deps.tx((uow) => deps.advance(uow, Number(runId)));

  const stale = await deps.db
    .selectFrom('engine_runs')
    .select('id')
    .where('status', 'in', ['pending', 'queued', 'in_progress'])
    .where('updated_at', '<', now - STALE_MS)
    .orderBy('updated_at')
    .limit(BATCH)
    .execute();
  for (const { id } of stale) {
    await deps.tx(async (uow) => {
      await deps.advance(uow, Number(id));
      await uow.tx.updateTable('engine_runs').set({ updated_at: uow.now }).where('id', '=', Number(id)).execute();
    });
  }
  if (lostJobs + deadNodeJobs + timedOut > 0) deps.logger.info({ lostJobs, deadNodeJobs, timedOut }, 'sweep repaired jobs');
  return { lostJobs, deadNodeJobs, timedOut, environmentTimers: timers.length, advancedRuns: stale.length };
}
