/**
 * The status functions `success()`, `failure()`, `cancelled()` and `always()`, and the rule that
 * an `if:` without one means `success() && (...)`.
 *
 * Step level (the runner): the functions read the job's current status; inside a composite
 * action's main steps, `success()` and `failure()` read the action's status instead, while
 * `cancelled()` always reads the job's.
 *
 * Job level (the server): the functions read the results of the jobs this job depends on.
 * GitHub looks at the whole `needs` chain, not only the direct needs: a job whose direct
 * dependency succeeded is still skipped when a job further up failed or was skipped. So pass
 * every ancestor's result in `needs`. With job names as arguments (`success('build')`), only
 * those dependencies count.
 */
import { FunctionCall } from '@actions/expressions/ast';
import { ANY_NAMES, type AllowedNamesOption } from './allowed-names.js';
import { FunctionFailure } from './errors.js';
import { parseExpression, ParsedExpression } from './parse.js';
import { someNode } from './tree.js';

/** A finished job's result, as in `needs.<job>.result`. */
export type JobResult = 'success' | 'failure' | 'cancelled' | 'skipped';

/** The running job's (or composite action's) status, as in `job.status`. */
export type JobStatus = 'success' | 'failure' | 'cancelled';

export interface StepStatus {
  readonly kind: 'step';
  readonly jobStatus: JobStatus;
  /** Set for the main steps of a composite action: its own status so far. */
  readonly actionStatus?: JobStatus;
}

export interface JobLevelStatus {
  readonly kind: 'job';
  /** Results of every job this job depends on, directly or through other jobs. */
  readonly needs: Readonly<Record<string, JobResult>>;
  /** The run was cancelled. */
  readonly cancelled?: boolean;
}

export type StatusContext = StepStatus | JobLevelStatus;

export const STATUS_FUNCTIONS: ReadonlySet<string> = new Set([
  'success',
  'failure',
  'cancelled',
  'always',
]);

/** Evaluates a status function; `name` is lower-case, `jobNames` its (string) arguments. */
export function statusFunction(name: string, jobNames: readonly string[], status: StatusContext): boolean {
  if (name === 'always') return true;
  if (status.kind === 'step') {
    const own = status.actionStatus ?? status.jobStatus;
    if (name === 'success') return own === 'success';
    if (name === 'failure') return own === 'failure';
    return status.jobStatus === 'cancelled';
  }
  const cancelled = status.cancelled === true;
  if (name === 'cancelled') return cancelled;
  const results = selectedResults(status.needs, jobNames);
  if (name === 'failure') return results.some((result) => result === 'failure');
  return !cancelled && results.every((result) => result === 'success');
}

function selectedResults(
  needs: Readonly<Record<string, JobResult>>,
  jobNames: readonly string[],
): JobResult[] {
  if (jobNames.length === 0) return Object.values(needs);
  const byName = new Map(Object.entries(needs).map(([job, result]) => [job.toLowerCase(), result]));
  return jobNames.map((job) => {
    const result = byName.get(job.toLowerCase());
    if (result === undefined) throw new FunctionFailure(`Job '${job}' is not a dependency of this job`);
    return result;
  });
}

/** Whether the expression calls `success`, `failure`, `cancelled` or `always` anywhere. */
export function hasStatusFunction(expression: ParsedExpression | string): boolean {
  const parsed = typeof expression === 'string' ? parseExpression(expression) : expression;
  return someNode(
    ParsedExpression.treeOf(parsed),
    (node) =>
      node instanceof FunctionCall && STATUS_FUNCTIONS.has(node.functionName.lexeme.toLowerCase()),
  );
}

/**
 * The condition the runner and GitHub actually evaluate for an `if:`: blank means `success()`,
 * a condition with a status function stays as written, any other becomes
 * `success() && (<condition>)`. Throws an ExpressionError if the condition does not parse.
 */
export function wrapIfCondition(condition: string, allowed: AllowedNamesOption = ANY_NAMES): string {
  if (condition.trim() === '') return 'success()';
  const parsed = parseExpression(condition, { allowed });
  if (parsed.isEmpty) return 'success()';
  return hasStatusFunction(parsed) ? condition : `success() && (${condition})`;
}
