import {
  expandJob,
  flattenJobs,
  loadWorkflow,
  planWorkflow,
  type ExpressionObject,
  type JsonObject,
  type NeedsContext,
} from '../../workflow/index.js';
import type { JobRecord, RunRecord } from '../model/records.js';
import type { NeedsEntry } from './needs.js';
import { toNewJobs } from '../selection/new-jobs.js';
import type { NewJob } from '../runs/create-run.js';
import { storedWorkflowLoader, type RunFiles } from '../runs/run-files.js';

export type Expansion = { readonly ok: true; readonly jobs: readonly NewJob[] } | { readonly ok: false; readonly reason: string };

/**
 * Expands a stand-in job whose fields read the results of the jobs it needs (a matrix from
 * `fromJSON(needs.x.outputs.y)`, `runs-on` from an output, ...): the run's workflow files, as
 * read when the run was created, are planned again for the run's event, and the job is expanded
 * with the `needs` context its dependencies produced.
 */
export async function expandDeferredJob(
  run: RunRecord,
  job: JobRecord,
  needs: Readonly<Record<string, NeedsEntry>>,
  files: RunFiles,
  serverUrl: string,
): Promise<Expansion> {
  const content = files.get(run.workflowPath)?.content;
  if (content === undefined) return { ok: false, reason: `the workflow file ${run.workflowPath} of this run was not kept; the job cannot be expanded` };
  const loaded = await loadWorkflow({ name: run.workflowPath, content }, { loader: storedWorkflowLoader(files) });
  if (!loaded.template) return { ok: false, reason: `the workflow no longer loads: ${loaded.errors.map((e) => e.message).join('; ')}` };
  const payload = (run.payload !== null && typeof run.payload === 'object' && !Array.isArray(run.payload) ? run.payload : {}) as JsonObject;
  const plan = planWorkflow(loaded, {
    event: { name: run.event, payload, ref: run.ref, sha: run.sha },
    workflowPath: run.workflowPath,
    run: { id: run.id, number: run.runNumber, attempt: run.runAttempt },
    server: { serverUrl },
    vars: run.vars,
  });
  const planned = flattenJobs(plan.jobs).find((candidate) => candidate.path === job.jobKey);
  if (!planned) return { ok: false, reason: `job '${job.jobKey}' is no longer in ${run.workflowPath}` };
  // `needs` inside a called workflow names its siblings by their own keys.
  const prefix = planned.scope.idPrefix;
  const context: Record<string, { result: NeedsEntry['result']; outputs: ExpressionObject }> = {};
  for (const [path, entry] of Object.entries(needs)) context[path.startsWith(prefix) ? path.slice(prefix.length) : path] = { result: entry.result, outputs: entry.outputs };
  const expanded = expandJob(planned.template, planned.scope, { needs: context as NeedsContext });
  if (expanded.errors.length > 0) return { ok: false, reason: expanded.errors.map((e) => e.message).join('; ') };
  const stillDeferred = [...expanded.deferred, ...expanded.instances.flatMap((i) => i.deferred)];
  if (stillDeferred.length > 0) {
    return { ok: false, reason: `job '${job.jobKey}' still reads values not known after its needs finished (${stillDeferred.map((d) => `${d.field}: ${d.waitingFor.join(', ')}`).join('; ')})` };
  }
  return { ok: true, jobs: toNewJobs(expanded, job.needs) };
}
