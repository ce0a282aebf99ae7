import { instancesDone, needsEntry, type Assignment, type JobRecord } from '../../../core/engine/index.js';
import type { NeedsContext } from '../../../core/workflow/index.js';
import { needsFromJobs, planFor, type JobPlan, type TokenCeiling } from '../job-message/index.js';

/** What the job message of an assignment is built from: its plan, and the `needs` context. */
export interface PlannedAssignment {
  readonly plan: JobPlan;
  readonly needs: NeedsContext;
}

export interface PlanAssignmentOptions {
  /** The public URL (`github.server_url` derives from it). */
  readonly serverUrl: string;
  /** The operator's `[token_permissions_ceiling]`; undefined when the config has none. */
  readonly ceiling: TokenCeiling | undefined;
}

/**
 * Plans an assignment's job again from the run's files, with the results of the jobs it needs
 * (read from the engine's records of the run). The needs come from the planned job when it plans
 * without them; a job whose instances were expanded from its needs (a matrix read from an output)
 * only plans with them, so those are read from the job's own record first.
 */
export async function planAssignment(assignment: Assignment, runJobs: readonly JobRecord[], options: PlanAssignmentOptions): Promise<PlannedAssignment> {
  const base = { serverUrl: options.serverUrl, ...(options.ceiling === undefined ? {} : { ceiling: options.ceiling }) };
  if (assignment.job.needs.length === 0) return { plan: await planFor(assignment, base), needs: {} };
  let needs: NeedsContext;
  try {
    const first = await planFor(assignment, base);
    needs = needsFromJobs(first.job, runJobs, first.workflow);
  } catch {
    needs = needsOfRecord(assignment.job, runJobs);
  }
  return { plan: await planFor(assignment, { ...base, needs }), needs };
}

/** The `needs` context from a job record alone: its needs are full job paths, keyed by the job's own scope. */
function needsOfRecord(job: JobRecord, runJobs: readonly JobRecord[]): NeedsContext {
  const prefix = job.jobKey.slice(0, job.jobKey.lastIndexOf('/') + 1);
  const result: Record<string, NeedsContext[string]> = {};
  for (const path of job.needs) {
    const own = runJobs.filter((record) => record.jobKey === path);
    const instances = own.length > 0 ? own : runJobs.filter((record) => record.jobKey.startsWith(`${path}/`));
    if (instances.length === 0 || !instancesDone(instances)) continue;
    const entry = needsEntry(instances);
    const key = path.startsWith(prefix) ? path.slice(prefix.length) : path;
    result[key] = { result: entry.result, outputs: own.length > 0 ? entry.outputs : {} };
  }
  return result;
}
