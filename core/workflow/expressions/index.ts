/**
 * Expressions (`${{ ... }}`, `if:`): GitHub's `@actions/expressions` behind our interface, with
 * the official runner's behaviour where the package differs (number formatting, error texts and
 * positions, limits, memory budget) and the runner's and server's functions (status functions,
 * `hashFiles`).
 */
export {
  allowedNames,
  ANY_NAMES,
  isContextName,
  JOB_IF_NAMES,
  STEP_IF_NAMES,
  STEP_NAMES,
  type AllowedNames,
  type AllowedNamesOption,
  type FunctionSignature,
} from './allowed-names.js';
export { PreparedContexts, prepareContexts, type ExpressionContexts } from './contexts.js';
export {
  ExpressionError,
  type ExpressionErrorCode,
  type ExpressionErrorKind,
  type ExpressionErrorOptions,
} from './errors.js';
export {
  evaluateExpression,
  evaluateExpressionAsync,
  evaluateIfCondition,
  evaluateIfConditionAsync,
  type EvaluateOptions,
} from './evaluate.js';
export type { HashFilesOptions, HashFilesPort } from './hash-files.js';
export { DEFAULT_MAX_MEMORY_BYTES, MAX_EXPRESSION_DEPTH, MAX_EXPRESSION_LENGTH } from './limits.js';
export { formatNumber, parseNumber } from './number-format.js';
export {
  createParseCache,
  defaultParseCache,
  parseExpression,
  ParsedExpression,
  type ParseCache,
  type ParseOptions,
} from './parse.js';
export {
  hasStatusFunction,
  wrapIfCondition,
  type JobLevelStatus,
  type JobResult,
  type JobStatus,
  type StatusContext,
  type StepStatus,
} from './status-functions.js';
export {
  isTruthy,
  kindOf,
  toExpressionString,
  type ExpressionKind,
  type ExpressionObject,
  type ExpressionValue,
} from './value.js';
