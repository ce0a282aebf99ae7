/**
 * `planWorkflow`: a loaded workflow and an event → the run it makes ("Workflow syntax"):
 * `run-name` and `concurrency` evaluated (allowed: `github`, `inputs`, `vars`), `permissions`,
 * `defaults` and `env` (the runner evaluates `env`: it may read `secrets`), and every job
 * expanded (expand-job.ts). Pure: the same inputs give the same plan, nothing is read or written.
 *
 * A plan is made whether or not the event triggers the workflow (`trigger` says which), so a
 * tool can show what would run; the engine creates runs only for `triggered` plans.
 */
import { isMapping } from '@actions/workflow-parser/templates/tokens/type-guards';
import { isReusableJob, type LoadWorkflowResult, type TemplateToken } from '../parser/index.js';
import { prepareContexts } from '../expressions/index.js';
import { toExpressionContexts } from '../templates/index.js';
import { errorAt, evaluateField, type FieldScope } from './field-evaluation.js';
import { expandWithin, MAX_RUN_JOBS, type JobBudget } from './expand-job.js';
import { flattenJobs } from './job-graph.js';
import { readConcurrency, readString } from './job-fields.js';
import { rootValue, runContexts, type PlanOptions } from './run-contexts.js';
import type { ConcurrencyPlan, DeferredField, JobScope, PlanError, PlannedJob, WorkflowPlan } from './types.js';

export function planWorkflow(loaded: LoadWorkflowResult, options: PlanOptions): WorkflowPlan {
  const template = loaded.template;
  if (template === undefined) throw new TypeError('planWorkflow needs a workflow that loaded without errors');
  const root = loaded.tokens;
  const path = options.workflowPath ?? loaded.fileTable[0] ?? '';
  const run = runContexts(root, path, options);
  const vars = options.vars ?? {};
  const errors: PlanError[] = [];
  const deferred: DeferredField[] = [];
  const fieldScope: FieldScope = {
    contexts: prepareContexts(toExpressionContexts({ github: run.github, vars, inputs: run.inputs })),
    unknown: new Set(),
    fileTable: loaded.fileTable,
    job: undefined,
    errors,
    deferred,
  };

  const scope: JobScope = {
    github: run.github,
    vars,
    inputs: run.inputs,
    idPrefix: '',
    namePrefix: '',
    waitsFor: [],
    env: template.env === undefined ? [] : [template.env],
    defaults: template.defaults === undefined ? [] : [template.defaults],
    secretNames: options.secretNames,
    fileTable: loaded.fileTable,
  };
  const max = options.maxJobs ?? MAX_RUN_JOBS;
  const budget: JobBudget = { max, remaining: max, exceeded: false };
  const jobs = template.jobs.map((job) => expandWithin(job, scope, undefined, budget));
  const all = flattenJobs(jobs);
  for (const job of all) errors.push(...job.errors);
  for (const job of all) errors.push(...inheritedSecretErrors(job, options.secretNames));

  return {
    name: run.github.workflow,
    path,
    event: options.event.name,
    trigger: run.trigger,
    github: run.github,
    inputs: run.inputs,
    runName: runName(rootValue(root, 'run-name'), fieldScope),
    concurrency: workflowConcurrency(template.concurrency, fieldScope),
    permissions: template.permissions,
    defaults: template.defaults,
    env: template.env,
    jobs,
    jobCount: all.reduce((count, job) => count + (job.kind === 'job' ? job.instances.length : 0), 0),
    errors,
    inputErrors: run.inputErrors,
    warnings: all.flatMap(warningsOf),
  };
}

function runName(token: TemplateToken | undefined, scope: FieldScope): string | undefined {
  const outcome = evaluateField(token, 'run-name', 'run-name', scope);
  if (outcome?.kind !== 'value') return undefined;
  const result = readString(outcome.token);
  if (result.ok) return result.value;
  scope.errors.push(errorAt(token, result.message, scope.fileTable, undefined));
  return undefined;
}

function workflowConcurrency(token: TemplateToken | undefined, scope: FieldScope): ConcurrencyPlan | undefined {
  const outcome = evaluateField(token, 'workflow-concurrency', 'concurrency', scope);
  if (outcome?.kind !== 'value') return undefined;
  const result = readConcurrency(outcome.token);
  if (result.ok) return result.value;
  scope.errors.push(errorAt(token, result.message, scope.fileTable, undefined));
  return undefined;
}

/** What a plan can tell that does not stop the run: a called workflow that was not loaded. */
function warningsOf(job: PlannedJob): string[] {
  const template = job.template;
  if (!isReusableJob(template) || template.jobs !== undefined) return [];
  return [`job '${job.path}' calls ${template.ref.value}, which was not loaded: its jobs are not in the plan`];
}

/**
 * When the secret names are known (a run being created: stored and run-supplied), a required
 * secret of a called workflow that `secrets: inherit` cannot provide fails the run with the
 * message GitHub gives a mapping that leaves it out (the parser reports those).
 */
function inheritedSecretErrors(job: PlannedJob, secretNames: readonly string[] | undefined): PlanError[] {
  const template = job.template;
  if (!isReusableJob(template) || template.jobs === undefined || !template['inherit-secrets']) return [];
  const available = job.scope.secretNames ?? secretNames;
  if (available === undefined) return [];
  const names = new Set(available.map((name) => name.toLowerCase()));
  const errors: PlanError[] = [];
  for (const pair of template['secret-definitions'] ?? []) {
    const required = isMapping(pair.value) ? pair.value.find('required')?.toString() === 'true' : false;
    if (required && !names.has(pair.key.toString().toLowerCase())) {
      errors.push(errorAt(template.ref, `Secret ${pair.key.toString()} is required, but not provided while calling.`, job.scope.fileTable, job.path));
    }
  }
  return errors;
}
