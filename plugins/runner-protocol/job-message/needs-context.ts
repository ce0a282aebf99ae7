/**
 * The `needs` context of a job from the run's job records: for each job it needs directly, the
 * result of all its instances and their outputs, by the engine's own rules (`needsEntry`). A
 * needed calling job stands for every job it calls (its result); its outputs (the called
 * workflow's `on.workflow_call.outputs`) are not evaluated here and read as empty.
 */
import { instancesDone, needsEntry, type JobRecord } from '../../../core/engine/index.js';
import type { JobOutcomeContext, NeedsContext, PlannedJob } from '../../../core/workflow/index.js';

export function needsFromJobs(job: PlannedJob, runJobs: readonly JobRecord[]): NeedsContext {
  const result: Record<string, JobOutcomeContext> = {};
  for (const key of job.needs) {
    const path = job.scope.idPrefix + key;
    const own = runJobs.filter((record) => record.jobKey === path);
    const called = own.length > 0 ? [] : runJobs.filter((record) => record.jobKey.startsWith(`${path}/`) || record.jobKey.startsWith(`${path}[`));
    const instances = own.length > 0 ? own : called;
    if (instances.length === 0 || !instancesDone(instances)) continue;
    const entry = needsEntry(instances);
    result[key] = { result: entry.result, outputs: own.length > 0 ? entry.outputs : {} };
  }
  return result;
}
