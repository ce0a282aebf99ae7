/**
 * `needs.<id>` of a calling job (`uses: …/.github/workflows/x.yml`) once the jobs it calls are
 * done: their results combined as for the instances of one job, and the called workflow's
 * `on.workflow_call.outputs.<id>.value` evaluated with the `jobs` context (each called job's
 * result and outputs; a called job that itself calls a workflow shows that call's outcome), the
 * called `inputs`, `github` and `vars`, as GitHub evaluates them when the call completes.
 */
import type { JobResult } from '../expressions/index.js';
import { prepareContexts } from '../expressions/index.js';
import { evaluateTemplateValue, TemplateEvaluationError, toExpressionContexts, type JobOutcomeContext, type JobsContext } from '../templates/index.js';
import type { JobInstance, PlannedJob } from './types.js';

const OUTPUT_FIELD = 'on.workflow_call.outputs.<output_id>.value';

/**
 * The outcome of a planned job from the results of the jobs that ran: `outcomeOf(path)` answers
 * a runnable job's (undefined when it is not in the run, e.g. left out by `--job`); a calling
 * job's is made of its called jobs'. Undefined when none of the jobs it stands for ran.
 */
export function plannedOutcome(job: PlannedJob, outcomeOf: (path: string) => JobOutcomeContext | undefined): JobOutcomeContext | undefined {
  if (job.kind === 'job') return outcomeOf(job.path);
  const results: JobResult[] = [];
  const outputs: Record<string, string> = {};
  // Instances in order: for a matrix of calls the last one to set an output wins.
  for (const instance of job.instances) {
    const outcome = instanceOutcome(job, instance, outcomeOf);
    if (outcome === undefined) continue;
    results.push(outcome.result);
    Object.assign(outputs, outcome.outputs);
  }
  return results.length === 0 ? undefined : { result: combined(results), outputs };
}

function instanceOutcome(caller: PlannedJob, instance: JobInstance, outcomeOf: (path: string) => JobOutcomeContext | undefined): JobOutcomeContext | undefined {
  const call = instance.call;
  if (call === undefined) return undefined;
  const jobs: Record<string, JobOutcomeContext> = {};
  for (const called of call.jobs) {
    const outcome = plannedOutcome(called, outcomeOf);
    if (outcome !== undefined) jobs[called.key] = outcome;
  }
  const results = Object.values(jobs).map((outcome) => outcome.result);
  if (results.length === 0) return undefined;
  const contexts = prepareContexts(toExpressionContexts({ github: caller.scope.github, vars: caller.scope.vars, inputs: call.inputs ?? {}, jobs: jobs as JobsContext }));
  const outputs: Record<string, string> = {};
  for (const [name, token] of Object.entries(call.outputs)) {
    try {
      outputs[name] = outputText(evaluateTemplateValue(token, contexts, { field: OUTPUT_FIELD, fileTable: caller.scope.fileTable }));
    } catch (error) {
      // GitHub leaves an output it cannot evaluate empty; the job reading it sees ''.
      if (!(error instanceof TemplateEvaluationError)) throw error;
      outputs[name] = '';
    }
  }
  return { result: combined(results), outputs };
}

/** As for a job's instances: failure, else cancelled, else skipped when all were, else success. */
function combined(results: readonly JobResult[]): JobResult {
  if (results.includes('failure')) return 'failure';
  if (results.includes('cancelled')) return 'cancelled';
  if (results.every((result) => result === 'skipped')) return 'skipped';
  return 'success';
}

/** Outputs are strings: a number or boolean as the expression language writes it, an object as JSON. */
function outputText(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return JSON.stringify(value);
}
