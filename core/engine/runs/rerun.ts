import { ConflictError, NotFoundError } from '../../kernel/index.js';
import type { JobRecord } from '../model/records.js';
import { isTerminal } from '../model/statuses.js';
import { loadJobs, loadRun, loadSuppliedValues } from '../store/queries.js';
import type { UnitOfWork } from '../store/unit-of-work.js';

/** What to run again: the whole run, its failed jobs, or one job. */
export type RerunScope = { readonly kind: 'all' } | { readonly kind: 'failed' } | { readonly kind: 'job'; readonly jobId: number };

/**
 * Re-runs in place, as GitHub does: the run keeps its id and number and gets the next attempt.
 * The whole run: every job again. Failed jobs: each failed or cancelled job and every job that
 * depends on one, directly or not. One job: it and its dependants. Jobs not chosen keep their
 * results and outputs, so the jobs that run again see the same `needs` context. Only a finished
 * run can be re-run, and not one that was given run-supplied values: those ended with it (as on
 * GitHub, where a re-run cannot bring back what its trigger supplied), so it fails at once naming them.
 */
export async function resetForRerun(uow: UnitOfWork, runId: number, scope: RerunScope, rowLocks: boolean): Promise<number> {
  const run = await loadRun(uow.tx, runId, rowLocks);
  if (!run) throw new NotFoundError(`run ${runId} does not exist`, { code: 'run_not_found' });
  if (!isTerminal(run.status)) {
    throw new ConflictError(`run ${runId} is ${run.status}; only a finished run can be re-run (cancel it first)`, { code: 'run_not_finished' });
  }
  const supplied = await loadSuppliedValues(uow.tx, runId);
  if (supplied !== undefined && supplied.secretNames.length + supplied.varNames.length > 0) {
    const named = [...supplied.secretNames.map((name) => `secret ${name}`), ...supplied.varNames.map((name) => `variable ${name}`)];
    throw new ConflictError(
      `run ${runId} cannot be re-run: run-supplied secrets are gone when the run ends: ${named.join(', ')}; start a new run that supplies them again (svc run --secret/--var)`,
      { code: 'run_values_gone', details: { secrets: supplied.secretNames, vars: supplied.varNames } },
    );
  }
  const jobs = await loadJobs(uow.tx, runId);
  const chosen = chooseJobs(jobs, scope);
  if (chosen.length === 0) throw new ConflictError(`run ${runId} has no failed jobs to re-run`, { code: 'nothing_to_rerun' });

  const { tx, now } = uow;
  for (const job of chosen) {
    await tx
      .updateTable('engine_jobs')
      .set({
        status: 'pending',
        reason: 'needs',
        conclusion: null,
        outputs: '{}',
        attempt: job.attempt + 1,
        runner_id: null,
        runner_name: null,
        lease_owner: null,
        lease_expires_at: null,
        cancel_requested: 0,
        // Back in the group's queue, at its end.
        concurrency_ticket: null,
        // Its environment's wait timer and approval start again, as on GitHub.
        environment_wait_until: null,
        environment_approval: null,
        queued_at: null,
        started_at: null,
        completed_at: null,
        updated_at: now,
      })
      .where('id', '=', job.id)
      .execute();
    await uow.event({ type: 'job_status', run_id: runId, job_id: job.id, status: 'pending' });
  }
  await tx
    .updateTable('engine_runs')
    .set({
      run_attempt: run.runAttempt + 1,
      status: 'pending',
      conclusion: null,
      reason: run.concurrencyGroup === null ? null : 'concurrency',
      concurrency_ticket: null,
      cancel_requested: 0,
      completed_at: null,
      updated_at: now,
    })
    .where('id', '=', runId)
    .where('status', '=', run.status)
    .execute();
  await uow.event({ type: 'run_status', run_id: runId, status: 'pending', reason: `re-run (attempt ${run.runAttempt + 1})` });
  return chosen.length;
}

export function chooseJobs(jobs: readonly JobRecord[], scope: RerunScope): JobRecord[] {
  let seeds: JobRecord[];
  if (scope.kind === 'all') return [...jobs];
  if (scope.kind === 'failed') {
    seeds = jobs.filter((job) => job.status === 'failure' || job.status === 'cancelled');
  } else {
    const job = jobs.find((j) => j.id === scope.jobId);
    if (!job) throw new NotFoundError(`job ${scope.jobId} is not part of this run`, { code: 'job_not_found' });
    seeds = [job];
  }
  const keys = new Set(seeds.map((job) => job.jobKey));
  // Dependants, transitively, by job key (every instance of a dependent matrix job reruns).
  for (let grew = true; grew; ) {
    grew = false;
    for (const job of jobs) {
      if (!keys.has(job.jobKey) && job.needs.some((need) => keys.has(need))) {
        keys.add(job.jobKey);
        grew = true;
      }
    }
  }
  const seedIds = new Set(seeds.map((job) => job.id));
  const seedKeys = new Set(seeds.map((job) => job.jobKey));
  return jobs.filter((job) => seedIds.has(job.id) || (keys.has(job.jobKey) && !seedKeys.has(job.jobKey)));
}
