/**
 * One instance of a job: its fields evaluated for one matrix combination (or for the job when it
 * has no matrix), with the contexts GitHub's server gives them before the job is queued
 * (`github`, `vars`, `inputs`, `needs`, `matrix`, `strategy`). Fields that read a context not
 * known yet are left for `expandJob` (see field-evaluation.ts).
 *
 * Display names (GitHub's rules, "jobs.<job_id>.name" and the matrix name builder): a literal
 * `name:` (or the key) gets the matrix values appended, `build (ubuntu-latest, 18)`; a `name:`
 * with an expression is evaluated per instance and shown as it comes out.
 */
import type { LiteralToken } from '@actions/workflow-parser/templates/tokens/literal-token';
import { isReusableJob, type ConvertedWorkflowJob, type TemplateToken } from '../parser/index.js';
import { prepareContexts } from '../expressions/index.js';
import { matrixJobName, type JsonObject, type MatrixCombination } from '../matrix/index.js';
import { literalText, toExpressionContexts, type NeedsContext, type StrategyContextData } from '../templates/index.js';
import { errorAt, evaluateField, type FieldOutcome, type FieldScope } from './field-evaluation.js';
import { readBoolean, readConcurrency, readEnvironment, readNumber, readRunsOn, readString, type Read } from './job-fields.js';
import type { DeferredField, JobInstance, JobScope, PlanError, PlanField } from './types.js';

/** GitHub's defaults ("jobs.<job_id>.timeout-minutes"; the runner's job cancel timeout). */
export const DEFAULT_TIMEOUT_MINUTES = 360;
export const DEFAULT_CANCEL_TIMEOUT_MINUTES = 5;

export interface InstanceInput {
  readonly template: ConvertedWorkflowJob;
  readonly scope: JobScope;
  readonly id: string;
  readonly path: string;
  readonly matrix: JsonObject | null;
  /** Undefined without a matrix, or while the strategy waits. */
  readonly combination: MatrixCombination | undefined;
  readonly strategy: StrategyContextData;
  /** False while the strategy waits: `matrix` and `strategy` are then placeholders. */
  readonly strategyKnown: boolean;
  readonly needs: NeedsContext | undefined;
  readonly errors: PlanError[];
  /** Shared by the instances of one job (see FieldScope.shared). */
  readonly shared: Map<TemplateToken, FieldOutcome>;
}

/** The instance without its `call` (a caller's is planned by reusable-call.ts), and its field scope. */
export interface InstanceDraft {
  readonly instance: Omit<JobInstance, 'call'>;
  readonly fieldScope: FieldScope;
}

export function buildInstance(input: InstanceInput): InstanceDraft {
  const { template, scope } = input;
  const deferred: DeferredField[] = [];
  const fieldScope: FieldScope = {
    contexts: prepareContexts(
      toExpressionContexts({
        github: scope.github,
        vars: scope.vars,
        inputs: scope.inputs ?? {},
        needs: input.needs ?? {},
        matrix: input.matrix,
        strategy: input.strategy,
      }),
    ),
    unknown: unknownContexts(input),
    fileTable: scope.fileTable,
    job: input.path,
    errors: input.errors,
    deferred,
    shared: input.shared,
  };
  const read = <T>(token: TemplateToken | undefined, field: PlanField, reader: (t: TemplateToken) => Read<T>): T | undefined =>
    readField(token, field, reader, fieldScope);

  const common = {
    id: input.id,
    name: scope.namePrefix + instanceName(template, input, fieldScope),
    matrix: input.matrix,
    strategy: input.strategy,
    concurrency: read(template.concurrency, 'concurrency', readConcurrency),
    permissions: template.permissions,
    deferred,
  };
  if (isReusableJob(template)) {
    const instance = {
      ...common,
      runsOn: undefined,
      environment: undefined,
      env: [],
      defaults: [],
      timeoutMinutes: DEFAULT_TIMEOUT_MINUTES,
      cancelTimeoutMinutes: DEFAULT_CANCEL_TIMEOUT_MINUTES,
      continueOnError: false,
      container: undefined,
      services: undefined,
      outputs: undefined,
      steps: [],
    };
    return { instance, fieldScope };
  }
  const instance = {
    ...common,
    runsOn: read(template['runs-on'], 'runs-on', readRunsOn),
    environment: read(template.environment, 'environment', readEnvironment),
    env: template.env === undefined ? scope.env : [...scope.env, template.env],
    defaults: template.defaults === undefined ? scope.defaults : [...scope.defaults, template.defaults],
    timeoutMinutes: read(template['timeout-minutes'], 'timeout-minutes', readNumber) ?? DEFAULT_TIMEOUT_MINUTES,
    cancelTimeoutMinutes: read(template['cancel-timeout-minutes'], 'cancel-timeout-minutes', readNumber) ?? DEFAULT_CANCEL_TIMEOUT_MINUTES,
    continueOnError: read(template['continue-on-error'], 'continue-on-error', readBoolean) ?? false,
    container: partial(template.container, 'container', fieldScope),
    services: partial(template.services, 'services', fieldScope),
    outputs: template.outputs,
    steps: template.steps,
  };
  return { instance, fieldScope };
}

function unknownContexts(input: InstanceInput): ReadonlySet<string> {
  const unknown = new Set<string>();
  if (input.needs === undefined) unknown.add('needs');
  if (input.scope.inputs === undefined) unknown.add('inputs');
  if (!input.strategyKnown) {
    unknown.add('matrix');
    unknown.add('strategy');
  }
  return unknown;
}

const FIELD_PATHS: Readonly<Record<PlanField, string>> = {
  strategy: 'jobs.<job_id>.strategy',
  name: 'jobs.<job_id>.name',
  'runs-on': 'jobs.<job_id>.runs-on',
  concurrency: 'jobs.<job_id>.concurrency',
  environment: 'jobs.<job_id>.environment',
  'timeout-minutes': 'jobs.<job_id>.timeout-minutes',
  'cancel-timeout-minutes': 'jobs.<job_id>.cancel-timeout-minutes',
  'continue-on-error': 'jobs.<job_id>.continue-on-error',
  container: 'jobs.<job_id>.container',
  services: 'jobs.<job_id>.services',
  with: 'jobs.<job_id>.with',
  'run-name': 'run-name',
  'workflow-concurrency': 'concurrency',
};

export function fieldPath(field: PlanField): string {
  return FIELD_PATHS[field];
}

/** The field's value; undefined when absent, deferred or in error (the last two are recorded). */
function readField<T>(token: TemplateToken | undefined, field: PlanField, reader: (t: TemplateToken) => Read<T>, scope: FieldScope): T | undefined {
  const outcome = evaluateField(token, field, fieldPath(field), scope);
  if (outcome?.kind !== 'value') return undefined;
  const result = reader(outcome.token);
  if (result.ok) return result.value;
  scope.errors.push(errorAt(token, result.message, scope.fileTable, scope.job));
  return undefined;
}

/** A token tree evaluated as far as plan time allows; the raw token while deferred. */
function partial(token: TemplateToken | undefined, field: PlanField, scope: FieldScope): TemplateToken | undefined {
  const outcome = evaluateField(token, field, fieldPath(field), scope);
  if (outcome === undefined || outcome.kind === 'error') return undefined;
  return outcome.kind === 'value' ? outcome.token : token;
}

function instanceName(template: ConvertedWorkflowJob, input: InstanceInput, scope: FieldScope): string {
  const key = template.id.value;
  const token = template.name;
  const withMatrix = (base: string): string => (input.combination === undefined ? base : matrixJobName(base, input.combination));
  if (token === undefined || token.isLiteral) {
    const base = token === undefined ? key : literalText(token as LiteralToken);
    return withMatrix(base === '' ? key : base);
  }
  const evaluated = readField(token, 'name', readString, scope);
  // While deferred (or after an error) the key stands in, as GitHub shows a job before it starts.
  return evaluated === undefined || evaluated === '' ? withMatrix(key) : evaluated;
}
