/**
 * The `needs` context of a job from the run's job records: for each job it needs directly, the
 * result of all its instances and their outputs. Same rules as the engine's scheduler (which
 * does not export them): a failed instance with `continue-on-error` counts as a success; any
 * failure makes `failure`, else any cancellation `cancelled`, else all skipped `skipped`, else
 * `success`; outputs of matrix instances merge in completion order, the last one winning.
 * A needed calling job stands for every job it calls (its result); its outputs (the called
 * workflow's `on.workflow_call.outputs`) are not evaluated here and read as empty.
 */
import type { JobRecord } from '../../../core/engine/index.js';
import type { JobOutcomeContext, NeedsContext, PlannedJob } from '../../../core/workflow/index.js';

type Result = JobOutcomeContext['result'];

export function needsFromJobs(job: PlannedJob, runJobs: readonly JobRecord[]): NeedsContext {
  const result: Record<string, JobOutcomeContext> = {};
  for (const key of job.needs) {
    const path = job.scope.idPrefix + key;
    const own = runJobs.filter((record) => record.jobKey === path);
    const called = own.length > 0 ? [] : runJobs.filter((record) => record.jobKey.startsWith(`${path}/`) || record.jobKey.startsWith(`${path}[`));
    const instances = own.length > 0 ? own : called;
    const results = instances.map(effectiveResult).filter((value): value is Result => value !== undefined);
    if (results.length === 0 || results.length < instances.length) continue;
    const outputs: Record<string, string> = {};
    const byCompletion = [...instances].sort((a, b) => (a.completedAt ?? 0) - (b.completedAt ?? 0) || a.id - b.id);
    if (own.length > 0) for (const instance of byCompletion) Object.assign(outputs, instance.outputs);
    result[key] = { result: aggregate(results), outputs };
  }
  return result;
}

/** Undefined while the instance has not finished. */
function effectiveResult(job: JobRecord): Result | undefined {
  if (job.status === 'failure') return job.continueOnError ? 'success' : 'failure';
  if (job.status === 'success' || job.status === 'cancelled' || job.status === 'skipped') return job.status;
  return undefined;
}

function aggregate(results: readonly Result[]): Result {
  if (results.includes('failure')) return 'failure';
  if (results.includes('cancelled')) return 'cancelled';
  if (results.every((value) => value === 'skipped')) return 'skipped';
  return 'success';
}
