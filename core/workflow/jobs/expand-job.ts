/**
 * `expandJob`: one `jobs.<id>` entry → its instances. The strategy is evaluated (allowed:
 * `github`, `inputs`, `vars`, `needs`) and resolved into matrix combinations (GitHub's order and
 * its 256-jobs-per-matrix limit, from matrix/); each combination becomes an instance
 * (job-instance.ts); a calling job's instances each plan their call (reusable-call.ts), whose
 * jobs are expanded the same way, as deep as the parser loaded them.
 *
 * At plan time `needs` is unknown: a strategy reading it (`fromJSON(needs.x.outputs.y)`) leaves
 * one stand-in instance, without a matrix, and the fields reading `needs` (or the unknown
 * matrix) are listed in `deferred`. Once the needed jobs are done the engine calls `expandJob`
 * again with their results (`needs`), and gets the real instances.
 *
 * Instance ids: the job path (`build`; `release[1]/publish` in a called workflow), and for a job
 * with a matrix `[<strategy.job-index>]` after it (`build[0]`, `build[1]`, ...). The index is
 * the combination's position in GitHub's expansion order, so ids are short, unique and stable
 * for the same workflow, event and inputs; the display name is the readable one.
 *
 * The number of jobs in a run is capped at MAX_RUN_JOBS: GitHub's "Check runs per check suite"
 * limit (50,000; every job of a run is a check run of the run's check suite). Nothing else
 * bounds a run: each matrix has its 256 jobs, but callers with a matrix multiply them.
 */
import type { LiteralToken } from '@actions/workflow-parser/templates/tokens/literal-token';
import { isReusableJob, type ConvertedWorkflowJob, type TemplateToken } from '../parser/index.js';
import { prepareContexts } from '../expressions/index.js';
import { resolveStrategy, type StrategyJob, type StrategyPlan } from '../matrix/index.js';
import {
  buildStrategyContext,
  ifConditionText,
  literalText,
  toExpressionContexts,
  tokenToValue,
  type NeedsContext,
} from '../templates/index.js';
import type { JsonValue } from '../triggers/index.js';
import { errorAt, evaluateField, type FieldOutcome, type FieldScope } from './field-evaluation.js';
import { buildInstance, fieldPath } from './job-instance.js';
import { planCall } from './reusable-call.js';
import type { DeferredField, JobInstance, JobScope, PlanError, PlannedJob, StrategySummary } from './types.js';

/** GitHub: "A check suite can have a maximum of 50,000 check runs" (Actions limits). */
export const MAX_RUN_JOBS = 50_000;

export interface ExpandJobOptions {
  /** Results of the jobs this job needs (direct `needs` only). Omitted at plan time. */
  readonly needs?: NeedsContext;
  /** Jobs this expansion may create; default MAX_RUN_JOBS. */
  readonly maxJobs?: number;
}

/** Jobs counted across one plan (or one re-expansion), against the limit. */
export interface JobBudget {
  readonly max: number;
  remaining: number;
  exceeded: boolean;
}

export function expandJob(template: ConvertedWorkflowJob, scope: JobScope, options: ExpandJobOptions = {}): PlannedJob {
  const max = options.maxJobs ?? MAX_RUN_JOBS;
  const budget: JobBudget = { max, remaining: max, exceeded: false };
  return expandWithin(template, scope, options.needs, budget);
}

/** expandJob with a budget shared by every job of a plan. */
export function expandWithin(
  template: ConvertedWorkflowJob,
  scope: JobScope,
  needs: NeedsContext | undefined,
  budget: JobBudget,
): PlannedJob {
  const key = template.id.value;
  const path = scope.idPrefix + key;
  const errors: PlanError[] = [];
  const deferred: DeferredField[] = [];
  const strategy = resolveJobStrategy(template, scope, path, needs, errors, deferred);
  // A called job that needs none of its siblings waits for what its caller needs.
  const ownNeeds = (template.needs ?? []).map((need) => scope.idPrefix + need.value);
  const waitsFor = ownNeeds.length > 0 ? ownNeeds : scope.waitsFor;

  let instances: JobInstance[] = [];
  if (strategy !== 'error') {
    const jobs: readonly StrategyJob[] = strategy?.jobs ?? [{ matrix: null, combination: undefined, strategy: buildStrategyContext() }];
    const matrix = jobs.some((job) => job.combination !== undefined);
    const runnable = isReusableJob(template) ? 0 : jobs.length;
    if (runnable > budget.remaining) {
      if (!budget.exceeded) errors.push(errorAt(template.id, `The workflow run would have more than ${budget.max} jobs`, scope.fileTable, path));
      budget.exceeded = true;
    } else {
      budget.remaining -= runnable;
      const shared = new Map<TemplateToken, FieldOutcome>();
      instances = jobs.map((job) => {
        const id = matrix ? `${path}[${job.strategy['job-index']}]` : path;
        const draft = buildInstance({
          template,
          scope,
          id,
          path,
          matrix: job.matrix,
          combination: job.combination,
          strategy: job.strategy,
          strategyKnown: strategy !== undefined,
          needs,
          errors,
          shared,
        });
        if (!isReusableJob(template)) return { ...draft.instance, call: undefined };
        const caller = { id, name: draft.instance.name, waitsFor };
        const expandCalled = (called: ConvertedWorkflowJob, calleeScope: JobScope): PlannedJob => expandWithin(called, calleeScope, undefined, budget);
        return { ...draft.instance, call: planCall(template, caller, scope, draft.fieldScope, expandCalled) };
      });
    }
  }

  return {
    key,
    path,
    kind: isReusableJob(template) ? 'call' : 'job',
    displayName: scope.namePrefix + baseName(template),
    needs: (template.needs ?? []).map((need) => need.value),
    waitsFor,
    if: ifConditionText(template.if),
    strategy: strategy === undefined || strategy === 'error' ? undefined : summary(strategy),
    matrix: instances.some((instance) => instance.matrix !== null),
    instances,
    deferred,
    errors: distinct(errors),
    template,
    scope,
  };
}

/** Each problem once: a value shared by a matrix's instances fails the same way for each. */
function distinct(errors: readonly PlanError[]): PlanError[] {
  const seen = new Set<string>();
  return errors.filter((error) => {
    const key = JSON.stringify([error.file, error.line, error.column, error.message]);
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/** The resolved strategy; undefined while it waits for `needs`; 'error' when it is not valid (reported). */
function resolveJobStrategy(
  template: ConvertedWorkflowJob,
  scope: JobScope,
  path: string,
  needs: NeedsContext | undefined,
  errors: PlanError[],
  deferred: DeferredField[],
): StrategyPlan | undefined | 'error' {
  const unknown = new Set<string>();
  if (needs === undefined) unknown.add('needs');
  if (scope.inputs === undefined) unknown.add('inputs');
  const fieldScope: FieldScope = {
    contexts: prepareContexts(toExpressionContexts({ github: scope.github, vars: scope.vars, inputs: scope.inputs ?? {}, needs: needs ?? {} })),
    unknown,
    fileTable: scope.fileTable,
    job: path,
    errors,
    deferred,
  };
  const outcome = evaluateField(template.strategy, 'strategy', fieldPath('strategy'), fieldScope);
  if (outcome?.kind === 'deferred') return undefined;
  if (outcome?.kind === 'error') return 'error';
  let value: JsonValue | undefined;
  if (outcome !== undefined) {
    try {
      value = tokenToValue(outcome.token) as JsonValue;
    } catch (error) {
      errors.push(errorAt(template.strategy, (error as Error).message, scope.fileTable, path));
      return 'error';
    }
  }
  const resolution = resolveStrategy(value, { jobId: template.id.value });
  if (resolution.ok) return resolution.plan;
  for (const message of resolution.errors) errors.push(errorAt(template.strategy, message, scope.fileTable, path));
  return 'error';
}

function summary(plan: StrategyPlan): StrategySummary {
  return { failFast: plan.failFast, maxParallel: plan.maxParallel, total: plan.jobs.length };
}

/** `name:` when literal, else the key (the job-level name, before matrix values). */
function baseName(template: ConvertedWorkflowJob): string {
  const token = template.name;
  if (token === undefined || !token.isLiteral) return template.id.value;
  return literalText(token as LiteralToken) || template.id.value;
}
