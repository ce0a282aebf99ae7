/**
 * The `needs` context of a job from the run's job records: for each job it needs directly, the
 * result of all its instances and their outputs, by the engine's own rules (`needsEntry`). A
 * needed calling job stands for every job it calls (its result); its outputs are the called
 * workflow's `on.workflow_call.outputs`, evaluated with the called jobs' results and outputs
 * (`plannedOutcome`).
 */
import { instancesDone, needsEntry, type JobRecord } from '../../../core/engine/index.js';
import { flattenJobs, plannedOutcome, type JobOutcomeContext, type NeedsContext, type PlannedJob, type WorkflowPlan } from '../../../core/workflow/index.js';

export function needsFromJobs(job: PlannedJob, runJobs: readonly JobRecord[], workflow: Pick<WorkflowPlan, 'jobs'>): NeedsContext {
  const result: Record<string, JobOutcomeContext> = {};
  let planned: ReadonlyMap<string, PlannedJob> | undefined;
  for (const key of job.needs) {
    const path = job.scope.idPrefix + key;
    const own = runJobs.filter((record) => record.jobKey === path);
    const called = own.length > 0 ? [] : runJobs.filter((record) => record.jobKey.startsWith(`${path}/`) || record.jobKey.startsWith(`${path}[`));
    const instances = own.length > 0 ? own : called;
    if (instances.length === 0 || !instancesDone(instances)) continue;
    const entry = needsEntry(instances);
    if (own.length > 0) {
      result[key] = { result: entry.result, outputs: entry.outputs };
      continue;
    }
    planned ??= new Map(flattenJobs(workflow.jobs).map((candidate) => [candidate.path, candidate]));
    const caller = planned.get(path);
    const outputs = caller?.kind === 'call' ? (plannedOutcome(caller, (jobPath) => outcomeOf(jobPath, runJobs))?.outputs ?? {}) : {};
    result[key] = { result: entry.result, outputs };
  }
  return result;
}

function outcomeOf(path: string, runJobs: readonly JobRecord[]): JobOutcomeContext | undefined {
  const instances = runJobs.filter((record) => record.jobKey === path);
  return instances.length === 0 || !instancesDone(instances) ? undefined : needsEntry(instances);
}
