/**
 * What one instance of a calling job (`uses: ./.github/workflows/x.yml`) runs ("Reusing
 * workflows"): the called workflow's `inputs` (the caller's `with:` checked against
 * `on.workflow_call.inputs`: types, defaults, required), its secrets (`secrets: inherit` or the
 * names mapped), its outputs (`on.workflow_call.outputs.<id>.value`, evaluated with `jobs` when
 * the call completes), its own `concurrency:`, and its jobs, expanded under the caller: paths
 * and ids prefixed `caller/`, display names `caller / callee`. The called jobs see the caller's
 * `github` and `vars`, not its `env` ("Any environment variables set in an env context defined
 * at the workflow level in the caller workflow are not propagated to the called workflow").
 */
import { isMapping } from '@actions/workflow-parser/templates/tokens/type-guards';
import type { ConvertedReusableWorkflowJob, ConvertedWorkflowJob, TemplateToken } from '../parser/index.js';
import { prepareContexts } from '../expressions/index.js';
import { evaluateTemplate, TemplateEvaluationError, tokenToValue, toExpressionContexts, type InputsContext } from '../templates/index.js';
import { resolveCallInputs, type JsonObject, type JsonValue } from '../triggers/index.js';
import { errorAt, evaluateField, fromTemplateError, type FieldScope } from './field-evaluation.js';
import { readConcurrency } from './job-fields.js';
import { fieldPath } from './job-instance.js';
import type { CallPlan, ConcurrencyPlan, JobScope, PlannedJob, SecretsPass } from './types.js';

/** Expands a job of the called workflow (expand-job.ts passes itself, to keep imports one-way). */
export type ExpandCalled = (template: ConvertedWorkflowJob, scope: JobScope) => PlannedJob;

export interface CallerInstance {
  readonly id: string;
  readonly name: string;
  /** Job paths the called jobs wait for (the caller's). */
  readonly waitsFor: readonly string[];
}

export function planCall(
  job: ConvertedReusableWorkflowJob,
  caller: CallerInstance,
  scope: JobScope,
  fieldScope: FieldScope,
  expand: ExpandCalled,
): CallPlan {
  const loaded = job.jobs !== undefined;
  const inputs = loaded ? callInputs(job, scope, fieldScope) : undefined;
  const calleeScope: JobScope = {
    github: scope.github,
    vars: scope.vars,
    inputs,
    idPrefix: `${caller.id}/`,
    namePrefix: `${caller.name} / `,
    waitsFor: caller.waitsFor,
    env: job.env === undefined ? [] : [job.env],
    defaults: job.defaults === undefined ? [] : [job.defaults],
    secretNames: job['inherit-secrets'] ? scope.secretNames : secretKeys(job['secret-values']),
    fileTable: scope.fileTable,
  };
  return {
    uses: job.ref.value,
    inputs,
    secrets: secretsPass(job, scope),
    outputs: callOutputs(job.outputs),
    concurrency: calledConcurrency(job, calleeScope, fieldScope),
    loaded,
    jobs: (job.jobs ?? []).map((called) => expand(called, calleeScope)),
  };
}

/** The called workflow's `inputs`: undefined while `with:` waits, `{}` after an error (reported). */
function callInputs(job: ConvertedReusableWorkflowJob, scope: JobScope, fieldScope: FieldScope): InputsContext | undefined {
  const withToken = job['input-values'];
  const outcome = evaluateField(withToken, 'with', fieldPath('with'), fieldScope);
  if (outcome?.kind === 'deferred') return undefined;
  if (outcome?.kind === 'error') return {};
  const given = outcome === undefined ? {} : (tokenToValue(outcome.token) as JsonValue);
  const declared = declaredInputs(job['input-definitions'], scope, fieldScope);
  if (declared === undefined) return {};
  const resolution = resolveCallInputs(declared, given);
  if (resolution.ok) return resolution.inputs;
  for (const issue of resolution.errors) {
    fieldScope.errors.push(errorAt(withToken ?? job.ref, issue.message, fieldScope.fileTable, fieldScope.job));
  }
  return {};
}

/**
 * `on.workflow_call.inputs` as plain data, each `default` evaluated (allowed: `github`, `inputs`,
 * `vars`; `inputs` there are the caller's, as GitHub evaluates defaults before the call).
 */
function declaredInputs(definitions: TemplateToken | undefined, scope: JobScope, fieldScope: FieldScope): JsonObject | undefined {
  if (definitions === undefined) return {};
  const contexts = prepareContexts(toExpressionContexts({ github: scope.github, vars: scope.vars, inputs: scope.inputs ?? {} }));
  try {
    const evaluated = evaluateTemplate(definitions, contexts, { field: 'on.workflow_call.inputs', fileTable: scope.fileTable });
    return tokenToValue(evaluated) as JsonObject;
  } catch (error) {
    if (!(error instanceof TemplateEvaluationError)) throw error;
    for (const problem of error.errors) fieldScope.errors.push(fromTemplateError(problem, fieldScope.job));
    return undefined;
  }
}

function secretsPass(job: ConvertedReusableWorkflowJob, scope: JobScope): SecretsPass {
  if (job['inherit-secrets']) return { inherit: true, names: scope.secretNames };
  return { inherit: false, names: secretKeys(job['secret-values']), values: job['secret-values'] };
}

function secretKeys(mapping: TemplateToken | undefined): readonly string[] {
  if (mapping === undefined || !isMapping(mapping)) return [];
  return [...mapping].map((pair) => pair.key.toString());
}

/** `on.workflow_call.outputs`: output name → its `value` token. */
function callOutputs(outputs: TemplateToken | undefined): Readonly<Record<string, TemplateToken>> {
  const result: Record<string, TemplateToken> = {};
  if (outputs === undefined || !isMapping(outputs)) return result;
  for (const pair of outputs) {
    const value = isMapping(pair.value) ? pair.value.find('value') : undefined;
    if (value !== undefined) result[pair.key.toString()] = value;
  }
  return result;
}

/** The called workflow's `concurrency:` (allowed: `github`, `inputs`, `vars`), with the called `inputs`. */
function calledConcurrency(job: ConvertedReusableWorkflowJob, callee: JobScope, caller: FieldScope): ConcurrencyPlan | undefined {
  const token = job['embedded-concurrency'];
  if (token === undefined) return undefined;
  // Its own scope, without the caller's shared outcomes: the called `inputs` differ per instance.
  const scope: FieldScope = {
    contexts: prepareContexts(toExpressionContexts({ github: callee.github, vars: callee.vars, inputs: callee.inputs ?? {} })),
    unknown: callee.inputs === undefined ? new Set(['inputs']) : new Set(),
    fileTable: caller.fileTable,
    job: caller.job,
    errors: caller.errors,
    deferred: caller.deferred,
  };
  const outcome = evaluateField(token, 'workflow-concurrency', fieldPath('workflow-concurrency'), scope);
  if (outcome?.kind !== 'value') return undefined;
  const result = readConcurrency(outcome.token);
  if (result.ok) return result.value;
  caller.errors.push(errorAt(token, result.message, caller.fileTable, caller.job));
  return undefined;
}
