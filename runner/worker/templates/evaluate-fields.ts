/**
 * The job message's tokens evaluated as the runner's PipelineTemplateEvaluator does, each with
 * the schema definition of its position (which names the allowed contexts and the value's
 * type): step `env` (`step-env`), step inputs (`step-with`), `continue-on-error`
 * (`boolean-steps-context`), `timeout-minutes` (`number-steps-context`, truncated to a whole
 * number), the step name (`string-steps-context`), job outputs (`job-outputs`), `defaults.run`
 * (`job-defaults-run`) and the environment URL (`string-runner-context-no-secrets`). Errors are
 * TemplateEvaluationErrors worded and placed like the runner's.
 */
import { TokenType, type TemplateToken } from '../../../core/protocol/index.js';
import {
  evaluateActionStageIf,
  evaluateTemplate,
  evaluateStepIf,
  readBoolean,
  readNumber,
  readString,
  readStringMap,
  type ExpressionContexts,
  type HashFilesPort,
  type JobStatus,
  type PreparedContexts,
} from '../../../core/workflow/index.js';
import { toParserToken } from './parser-tokens.js';

export interface EvaluationScope {
  readonly contexts: ExpressionContexts | PreparedContexts;
  readonly fileTable: readonly string[];
  readonly hashFiles?: HashFilesPort;
}

function evaluate(token: TemplateToken, definition: string, scope: EvaluationScope) {
  return evaluateTemplate(toParserToken(token), scope.contexts, {
    definition,
    fileTable: scope.fileTable,
    ...(scope.hashFiles === undefined ? {} : { hashFiles: scope.hashFiles }),
  });
}

/** A `{name: value}` mapping (`env:`, `with:`, job `outputs:`, `defaults.run`); a null token is empty. */
function mapping(token: TemplateToken | undefined, definition: string, description: string, scope: EvaluationScope): Record<string, string> {
  if (token === undefined || token.type === TokenType.Null) return {};
  return readStringMap(evaluate(token, definition, scope), description, { fileTable: scope.fileTable });
}

export function evaluateStepEnvironment(token: TemplateToken | undefined, scope: EvaluationScope): Record<string, string> {
  return mapping(token, 'step-env', 'environment', scope);
}

export function evaluateStepInputs(token: TemplateToken | undefined, scope: EvaluationScope): Record<string, string> {
  return mapping(token, 'step-with', 'inputs', scope);
}

export function evaluateJobOutputs(token: TemplateToken | undefined, scope: EvaluationScope): Record<string, string> {
  return mapping(token, 'job-outputs', 'outputs', scope);
}

export function evaluateDefaultsRun(token: TemplateToken, scope: EvaluationScope): Record<string, string> {
  return mapping(token, 'job-defaults-run', 'defaults run', scope);
}

export function evaluateContinueOnError(token: TemplateToken | undefined, scope: EvaluationScope): boolean {
  if (token === undefined || token.type === TokenType.Null) return false;
  return readBoolean(evaluate(token, 'boolean-steps-context', scope), 'step continue-on-error', { fileTable: scope.fileTable });
}

/** Whole minutes, as the runner's `(Int32)` cast makes them (1.9 → 1); 0 means no timeout. */
export function evaluateTimeoutMinutes(token: TemplateToken | undefined, scope: EvaluationScope): number {
  if (token === undefined || token.type === TokenType.Null) return 0;
  const minutes = readNumber(evaluate(token, 'number-steps-context', scope), 'step timeout-minutes', { fileTable: scope.fileTable });
  if (!Number.isFinite(minutes)) return 0;
  return Math.max(-2_147_483_648, Math.min(2_147_483_647, Math.trunc(minutes)));
}

export function evaluateDisplayName(token: TemplateToken, scope: EvaluationScope): string {
  return readString(evaluate(token, 'string-steps-context', scope), 'step name', { fileTable: scope.fileTable });
}

export function evaluateEnvironmentUrl(token: TemplateToken, scope: EvaluationScope): string {
  return readString(evaluate(token, 'string-runner-context-no-secrets', scope), 'environment.url', { fileTable: scope.fileTable });
}

/** A step's `if:` with the status functions reading the job's status (`''` means `success()`). */
export function evaluateCondition(condition: string, jobStatus: JobStatus, scope: EvaluationScope): boolean {
  return evaluateStepIf(condition, scope.contexts, {
    jobStatus,
    fileTable: scope.fileTable,
    ...(scope.hashFiles === undefined ? {} : { hashFiles: scope.hashFiles }),
  });
}

/** An action's `post-if` (as written, `always()` when empty; status functions read the job's status). */
export function evaluatePostCondition(condition: string, jobStatus: JobStatus, scope: EvaluationScope): boolean {
  return evaluateActionStageIf(condition, scope.contexts, {
    jobStatus,
    fileTable: scope.fileTable,
    ...(scope.hashFiles === undefined ? {} : { hashFiles: scope.hashFiles }),
  });
}

/** How a token reads when it cannot be evaluated (`${{ matrix.name }}`). */
export function tokenDisplay(token: TemplateToken): string {
  switch (token.type) {
    case TokenType.String:
      return token.value;
    case TokenType.BasicExpression:
      return `\${{ ${token.expression} }}`;
    case TokenType.Boolean:
    case TokenType.Number:
      return String(token.value);
    default:
      return '';
  }
}
