/**
 * `if:` of jobs and steps. The condition is an expression with or without `${{ }}`; blank means
 * `success()`, and a condition without a status function means `success() && (<condition>)`
 * ("Expressions → Status check functions"). Job conditions are GitHub's (status functions read
 * the results of the jobs needed, transitively); step conditions are the runner's (status
 * functions read the job's status, or a composite action's own). Names allowed are the
 * schema's for `jobs.<job_id>.if` and `jobs.<job_id>.steps.if` (or an action's `runs.steps.if`).
 *
 * Beware the documented pitfall, kept as GitHub has it: `if: ${{ a }} && b` is a string with an
 * embedded expression, i.e. `format('{0} && b', a)`, a non-empty string, so always true.
 */
import type { TemplateToken } from '@actions/workflow-parser/templates/tokens/template-token';
import type { BasicExpressionToken } from '@actions/workflow-parser/templates/tokens/basic-expression-token';
import type { LiteralToken } from '@actions/workflow-parser/templates/tokens/literal-token';
import { TokenType } from '@actions/workflow-parser/templates/tokens/types';
import {
  evaluateExpression,
  evaluateIfCondition,
  evaluateIfConditionAsync,
  ExpressionError,
  isTruthy,
  type AllowedNames,
  type ExpressionContexts,
  type HashFilesPort,
  type JobResult,
  type JobStatus,
  type PreparedContexts,
  type StatusContext,
} from '../expressions/index.js';
import { allowedNamesFor, namesOf } from './field-contexts.js';
import { parserSchema, type ParserSchemaKind } from './parser-schema.js';
import { TemplateErrorList } from './template-errors.js';
import { literalText } from './token-values.js';

export type IfCondition = TemplateToken | string | undefined;
type Contexts = ExpressionContexts | PreparedContexts;

export interface JobIfOptions {
  /** Results of every job this job depends on, directly or through other jobs. */
  readonly needs: Readonly<Record<string, JobResult>>;
  /** The run was cancelled. */
  readonly cancelled?: boolean;
  readonly fileTable?: readonly string[];
}

export interface StepIfOptions {
  /** The job's status so far (`job.status`). */
  readonly jobStatus: JobStatus;
  /** For the steps of a composite action: the action's own status so far. */
  readonly actionStatus?: JobStatus;
  readonly hashFiles?: HashFilesPort;
  /** `action` for the steps of a composite action (its schema's names: no `needs`, `secrets`). */
  readonly schema?: ParserSchemaKind;
  readonly fileTable?: readonly string[];
}

/** Whether a job runs: its `if:` evaluated with GitHub's job-level status functions. */
export function evaluateJobIf(condition: IfCondition, contexts: Contexts, options: JobIfOptions): boolean {
  const status: StatusContext = { kind: 'job', needs: options.needs, ...(options.cancelled ? { cancelled: true } : {}) };
  const allowed = allowedNamesFor('jobs.<job_id>.if');
  return located(condition, options.fileTable, () => evaluateIfCondition(ifConditionText(condition), contexts, { allowed, status }));
}

/** Whether a step runs: its `if:` evaluated as the runner does (hashFiles must answer synchronously). */
export function evaluateStepIf(condition: IfCondition, contexts: Contexts, options: StepIfOptions): boolean {
  const { allowed, status } = stepSettings(options);
  const hashFiles = options.hashFiles === undefined ? {} : { hashFiles: options.hashFiles };
  return located(condition, options.fileTable, () =>
    evaluateIfCondition(ifConditionText(condition), contexts, { allowed, status, ...hashFiles }),
  );
}

/** `evaluateStepIf` whose `hashFiles` port may answer with promises. */
export async function evaluateStepIfAsync(condition: IfCondition, contexts: Contexts, options: StepIfOptions): Promise<boolean> {
  const { allowed, status } = stepSettings(options);
  const hashFiles = options.hashFiles === undefined ? {} : { hashFiles: options.hashFiles };
  try {
    return await evaluateIfConditionAsync(ifConditionText(condition), contexts, { allowed, status, ...hashFiles });
  } catch (error) {
    throw relocated(error, condition, options.fileTable);
  }
}

const WHOLE_EXPRESSION = /^\s*\$\{\{([\s\S]*)\}\}\s*$/;

/**
 * The condition as written, without `${{ }}` and before the implicit `success() &&`. A string
 * that is one whole `${{ }}` loses it, as the parser's reader would read it; any other string
 * is taken as the expression itself.
 */
export function ifConditionText(condition: IfCondition): string {
  if (condition === undefined) return '';
  if (typeof condition === 'string') {
    const whole = WHOLE_EXPRESSION.exec(condition);
    return whole && !whole[1]?.includes('${{') ? (whole[1] ?? '').trim() : condition;
  }
  switch (condition.templateTokenType) {
    case TokenType.BasicExpression:
      return (condition as BasicExpressionToken).expression;
    case TokenType.String:
    case TokenType.Boolean:
    case TokenType.Number:
    case TokenType.Null:
      return literalText(condition as LiteralToken);
    default:
      throw new TypeError(`an if: condition is a string or an expression, not a ${condition.typeName()}`);
  }
}

export interface ActionStageIfOptions {
  /** The job's status: `pre-if` and `post-if` status functions read the job's, not the action's. */
  readonly jobStatus: JobStatus;
  readonly hashFiles?: HashFilesPort;
  readonly fileTable?: readonly string[];
}

/**
 * Whether an action's `pre:`/`post:` (or `pre-entrypoint:`/`post-entrypoint:`) runs: its
 * `pre-if`/`post-if` ("Metadata syntax → runs.pre-if"), default `always()`, evaluated as written
 * (no implicit `success() &&`), with the action schema's `runs-if` names.
 */
export function evaluateActionStageIf(condition: string | undefined, contexts: Contexts, options: ActionStageIfOptions): boolean {
  const text = ifConditionText(condition ?? '').trim() || 'always()';
  const allowed = namesOf(parserSchema('action').getDefinition('runs-if').readerContext);
  const status: StatusContext = { kind: 'step', jobStatus: options.jobStatus };
  const hashFiles = options.hashFiles === undefined ? {} : { hashFiles: options.hashFiles };
  return located(condition, options.fileTable, () => isTruthy(evaluateExpression(text, contexts, { allowed, status, ...hashFiles })));
}

function stepSettings(options: StepIfOptions): { allowed: AllowedNames; status: StatusContext } {
  const allowed =
    options.schema === 'action' ? allowedNamesFor('runs.steps.if', 'action') : allowedNamesFor('jobs.<job_id>.steps.if');
  const status: StatusContext = {
    kind: 'step',
    jobStatus: options.jobStatus,
    ...(options.actionStatus === undefined ? {} : { actionStatus: options.actionStatus }),
  };
  return { allowed, status };
}

function located<T>(condition: IfCondition, fileTable: readonly string[] | undefined, run: () => T): T {
  try {
    return run();
  } catch (error) {
    throw relocated(error, condition, fileTable);
  }
}

/** An expression problem becomes a template error placed at the condition's token. */
function relocated(error: unknown, condition: IfCondition, fileTable: readonly string[] | undefined): unknown {
  if (!(error instanceof ExpressionError)) return error;
  const errors = new TemplateErrorList(fileTable);
  errors.add(typeof condition === 'object' ? condition : undefined, error);
  return errors.toError() ?? error;
}
