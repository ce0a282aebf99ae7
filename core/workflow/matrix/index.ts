/**
 * Matrix strategies: expansion of `strategy.matrix` with GitHub's include/exclude rules and
 * order, the 256-job limit, `fail-fast` and `max-parallel`, and matrix job display names.
 * Pure functions over plain data (expressions are evaluated before).
 */
export type { JsonObject, JsonPrimitive, JsonValue, MatrixCombination, MatrixExpansion } from './types.js';
export { MATRIX_JOB_LIMIT, expandMatrix, type ExpandOptions } from './expand-matrix.js';
export { JOB_NAME_MAX_LENGTH, matrixJobName } from './job-name.js';
export {
  resolveStrategy,
  type StrategyContext,
  type StrategyJob,
  type StrategyPlan,
  type StrategyResolution,
} from './strategy.js';
