import type { JobRecord, RunRecord } from '../model/records.js';
import { isTerminal } from '../model/statuses.js';
import { loadJobs, loadRun } from '../store/queries.js';
import type { UnitOfWork } from '../store/unit-of-work.js';
import { releaseJobConcurrency, releaseRunConcurrency } from './concurrency.js';
import { decideWaitingJobs, parallelRoom, type Decision, type IfEvaluation } from './decide.js';
import { runStatusFrom } from './run-outcome.js';
import { holdJob, moveJob } from './transitions.js';
import type { Expansion } from './expand-deferred.js';
import type { NeedsEntry } from './needs.js';
import { replaceStandIns } from './stand-ins.js';
import { applyEnvironmentGates, type EnvironmentRules } from '../environments/index.js';

export interface AdvanceOptions {
  /** Row locks serialise schedulers of one run on a shared store. */
  readonly rowLocks: boolean;
  readonly evaluateIf: (input: IfEvaluation) => boolean;
  /** Expands a deferred stand-in once its needs are done (see expand-deferred.ts). */
  readonly expand: (uow: UnitOfWork, run: RunRecord, job: JobRecord, needs: Readonly<Record<string, NeedsEntry>>) => Promise<Expansion>;
  /** The operator's environment rules (environments/). */
  readonly environmentRules: EnvironmentRules;
}

/**
 * One scheduling pass over a run, in the caller's transaction: release the run from its
 * concurrency group when it may start, decide jobs whose needs are done (queued, skipped, or
 * failed on an `if:` that cannot be evaluated), queue held jobs that now fit `max-parallel`
 * and their concurrency group, and update the run's status. Idempotent: running it twice, or
 * on two nodes, gives the same state.
 */
export async function advanceRun(uow: UnitOfWork, runId: number, options: AdvanceOptions): Promise<RunRecord | undefined> {
  let run = await loadRun(uow.tx, runId, options.rowLocks);
  if (!run || isTerminal(run.status)) return run;
  // Held behind a policy gate: nothing moves until the gate is released (or closes).
  if (run.status === 'pending' && run.reason?.startsWith('gate:') === true) return run;

  if (run.status === 'pending' && run.reason === 'concurrency') {
    const verdict = await releaseRunConcurrency(uow, run);
    if (verdict === 'cancelled') return loadRun(uow.tx, runId);
    if (verdict === 'waiting') return run;
    run = { ...run, reason: null };
  }

  let jobs = await loadJobs(uow.tx, runId);
  // A decision can finish a job others wait on (a skip), and so can an environment rule (a ref
  // it does not allow): decide again until nothing changes.
  for (;;) {
    const decisions = decideWaitingJobs(run, jobs, run.cancelRequested, options.evaluateIf);
    if (decisions.length > 0) {
      await applyDecisions(uow, run, decisions, options);
      jobs = await loadJobs(uow.tx, runId);
    }
    const gated = await applyEnvironmentGates(uow, run, jobs, options.environmentRules);
    if (gated.changed) jobs = await loadJobs(uow.tx, runId);
    if (decisions.length === 0 && !gated.failed) break;
  }

  for (const job of jobs.filter(isReleasable)) {
    if (parallelRoom(job, jobs) === 0) continue;
    if (job.concurrencyGroup !== null) {
      const verdict = await releaseJobConcurrency(uow, job);
      if (verdict === 'waiting') await holdJob(uow, job, 'concurrency');
      if (verdict !== 'released') continue;
    }
    if (await moveJob(uow, job, 'queued')) {
      jobs = jobs.map((other) => (other.id === job.id ? { ...other, status: 'queued' } : other));
    }
  }

  return updateRunStatus(uow, run, await loadJobs(uow.tx, runId));
}

async function applyDecisions(uow: UnitOfWork, run: RunRecord, decisions: readonly Decision[], options: AdvanceOptions): Promise<void> {
  const expanded = new Set<string>();
  for (const decision of decisions) {
    const { job } = decision;
    if (decision.kind === 'ready' && job.deferred) {
      // All stand-ins of one job are replaced by one expansion.
      if (expanded.has(job.jobKey)) continue;
      expanded.add(job.jobKey);
      const expansion = await options.expand(uow, run, job, decision.needs);
      if (expansion.ok) await replaceStandIns(uow, job, expansion.jobs);
      else await moveJob(uow, job, 'failure', { reason: expansion.reason });
      continue;
    }
    if (decision.kind === 'skip') {
      // Jobs that do not run because the run was cancelled show as cancelled, not skipped.
      await moveJob(uow, job, run.cancelRequested ? 'cancelled' : 'skipped');
    } else if (decision.kind === 'fail') {
      await moveJob(uow, job, 'failure', { reason: decision.reason });
    } else {
      // Ready: released below, subject to max-parallel and its concurrency group.
      await holdJob(uow, job, 'max_parallel');
    }
  }
}

function isReleasable(job: JobRecord): boolean {
  return job.status === 'pending' && (job.reason === 'max_parallel' || job.reason === 'concurrency');
}

async function updateRunStatus(uow: UnitOfWork, run: RunRecord, jobs: readonly JobRecord[]): Promise<RunRecord> {
  const next = runStatusFrom(jobs, run.cancelRequested, run.runAttempt);
  if (next.status === run.status) return run;
  const terminal = isTerminal(next.status);
  const started = next.status === 'in_progress' && run.startedAt === null;
  await uow.tx
    .updateTable('engine_runs')
    .set({
      status: next.status,
      conclusion: next.conclusion,
      updated_at: uow.now,
      ...(started ? { started_at: uow.now } : {}),
      ...(terminal ? { completed_at: uow.now, reason: null } : {}),
    })
    .where('id', '=', run.id)
    .where('status', '=', run.status)
    .execute();
  await uow.event({ type: 'run_status', run_id: run.id, status: next.status });
  return { ...run, status: next.status, conclusion: next.conclusion, completedAt: terminal ? uow.now : run.completedAt, startedAt: started ? uow.now : run.startedAt };
}
