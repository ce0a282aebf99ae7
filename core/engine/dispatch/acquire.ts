import type { JobRecord, RunRecord } from '../model/records.js';
import { loadRunFiles, type RunFiles } from '../runs/run-files.js';
import { loadJob, loadRun } from '../store/queries.js';
import { toJobRecord } from '../store/mappers.js';
import type { EngineDb } from '../store/engine-db.js';
import type { UnitOfWork } from '../store/unit-of-work.js';
import { labelsMatch } from './labels.js';

export interface RunnerIdentity {
  /** Stable id of the runner (agent id); owns the job's lease. */
  readonly runnerId: string;
  readonly runnerName: string;
  readonly labels: readonly string[];
  /** The node whose built-in pool launched this runner, when one did. */
  readonly homeNode?: string;
}

export interface Assignment {
  readonly run: RunRecord;
  readonly job: JobRecord;
  /** The workflow files of the run (what the job message is built from; run-files.ts). */
  readonly files: RunFiles;
  /** Epoch ms until which the runner holds the job unless it renews. */
  readonly leaseExpiresAt: number;
}

const CANDIDATES = 50;

/** Queued jobs, oldest first, whose labels this runner satisfies. */
export async function findCandidates(db: EngineDb, runner: RunnerIdentity): Promise<JobRecord[]> {
  const rows = await db.selectFrom('engine_jobs').selectAll().where('status', '=', 'queued').orderBy('queued_at').orderBy('id').limit(CANDIDATES).execute();
  return rows.map(toJobRecord).filter((job) => labelsMatch(job.runsOn, runner.labels));
}

/**
 * Hands one job to a runner: a single conditional update moves it from `queued` to
 * `in_progress` with the runner's lease, so of two runners (or nodes) racing for it exactly
 * one wins; the loser tries the next candidate.
 */
export async function claimJob(uow: UnitOfWork, jobId: number, runner: RunnerIdentity, leaseMs: number, rowLocks: boolean, nodeId: string): Promise<Assignment | undefined> {
  const { tx, now } = uow;
  // Lock order everywhere: the run row first, then its jobs and its event counter.
  const owner = await tx.selectFrom('engine_jobs').select('run_id').where('id', '=', jobId).executeTakeFirst();
  if (!owner) return undefined;
  await loadRun(tx, Number(owner.run_id), rowLocks);
  const leaseExpiresAt = now + leaseMs;
  const claimed = await tx
    .updateTable('engine_jobs')
    .set({
      status: 'in_progress',
      reason: null,
      runner_id: runner.runnerId,
      runner_name: runner.runnerName,
      lease_owner: runner.runnerId,
      lease_expires_at: leaseExpiresAt,
      // The runner is heard from through this node (dead-node-jobs.ts).
      node_id: nodeId,
      heard_at: now,
      home_node_id: runner.homeNode ?? null,
      started_at: now,
      updated_at: now,
    })
    .where('id', '=', jobId)
    .where('status', '=', 'queued')
    .executeTakeFirst();
  if (claimed.numUpdatedRows === 0n) return undefined;
  const job = await loadJob(tx, jobId);
  const run = job && (await loadRun(tx, job.runId));
  if (!job || !run) return undefined;
  await uow.event({ type: 'job_status', run_id: run.id, job_id: job.id, status: 'in_progress' });
  if (run.status !== 'in_progress') {
    await tx.updateTable('engine_runs').set({ status: 'in_progress', started_at: run.startedAt ?? now, updated_at: now }).where('id', '=', run.id).execute();
    await uow.event({ type: 'run_status', run_id: run.id, status: 'in_progress' });
  }
  return { run: { ...run, status: 'in_progress' }, job, files: await loadRunFiles(tx, run.id), leaseExpiresAt };
}
