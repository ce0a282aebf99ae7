/**
 * Evaluating one field of a job (or of the workflow) at plan time, GitHub's server's way:
 * partially, so positions the runner evaluates (an environment's `url`, a container's
 * credentials and `env`) stay tokens, and not at all while the field reads a context that is
 * not known yet (see context-reads.ts). Problems become PlanErrors placed in the file.
 */
import type { TemplateToken } from '../parser/index.js';
import type { PreparedContexts } from '../expressions/index.js';
import { evaluateTemplate, TemplateEvaluationError, type TemplateError } from '../templates/index.js';
import { contextsRead, unknownContextsRead } from './context-reads.js';
import type { DeferredField, PlanError, PlanField } from './types.js';

/** What one evaluation sees: the contexts (placeholders for the unknown ones) and where to report. */
export interface FieldScope {
  readonly contexts: PreparedContexts;
  /** Contexts with placeholder values: a field reading one of them waits. */
  readonly unknown: ReadonlySet<string>;
  readonly fileTable: readonly string[];
  /** The job path problems are about, if any. */
  readonly job: string | undefined;
  readonly errors: PlanError[];
  readonly deferred: DeferredField[];
  /**
   * Outcomes of fields that read neither `matrix` nor `strategy`, shared by the instances of a
   * job: they come out the same for every instance, and an error is reported once.
   */
  readonly shared?: Map<TemplateToken, FieldOutcome>;
}

export type FieldOutcome =
  | { readonly kind: 'value'; readonly token: TemplateToken }
  | { readonly kind: 'deferred' }
  | { readonly kind: 'error' };

const ABSENT: FieldOutcome = { kind: 'error' };

/**
 * The field evaluated (partially), or `deferred` (recorded in the scope) when it reads an unknown
 * context, or `error` (recorded) when it is not valid. `path` names the field as the docs do
 * (`jobs.<job_id>.runs-on`); it decides the allowed contexts and the expected type.
 */
export function evaluateField(
  token: TemplateToken | undefined,
  field: PlanField,
  path: string,
  scope: FieldScope,
): FieldOutcome | undefined {
  if (token === undefined) return undefined;
  const waitingFor = unknownContextsRead(token, scope.unknown);
  if (waitingFor.length > 0) {
    scope.deferred.push({ field, waitingFor });
    return { kind: 'deferred' };
  }
  const read = contextsRead(token);
  const shared = read.has('matrix') || read.has('strategy') ? undefined : scope.shared;
  const known = shared?.get(token);
  if (known !== undefined) return known;
  const outcome = evaluate(token, path, scope);
  shared?.set(token, outcome);
  return outcome;
}

function evaluate(token: TemplateToken, path: string, scope: FieldScope): FieldOutcome {
  try {
    return { kind: 'value', token: evaluateTemplate(token, scope.contexts, { field: path, partial: true, fileTable: scope.fileTable }) };
  } catch (error) {
    if (!(error instanceof TemplateEvaluationError)) throw error;
    for (const problem of error.errors) scope.errors.push(fromTemplateError(problem, scope.job));
    return ABSENT;
  }
}

export function fromTemplateError(problem: TemplateError, job: string | undefined): PlanError {
  return {
    ...(problem.file === undefined ? {} : { file: problem.file }),
    ...(problem.line === undefined ? {} : { line: problem.line }),
    ...(problem.column === undefined ? {} : { column: problem.column }),
    message: problem.message,
    ...(job === undefined ? {} : { job }),
  };
}

/** A problem placed at a token (its file and start position). */
export function errorAt(token: TemplateToken | undefined, message: string, fileTable: readonly string[], job: string | undefined): PlanError {
  const file = token?.file === undefined ? undefined : fileTable[token.file - 1];
  const start = token?.range?.start;
  return {
    ...(file === undefined ? {} : { file }),
    ...(start === undefined ? {} : { line: start.line, column: start.column }),
    message,
    ...(job === undefined ? {} : { job }),
  };
}
