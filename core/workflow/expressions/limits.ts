/**
 * The official runner's limits on expressions (ExpressionConstants.MaxLength and MaxDepth, and
 * the 1 MiB default of EvaluationOptions.MaxMemory). `@actions/expressions` enforces the same
 * length and depth; we check the length ourselves to report it in the runner's words.
 */
export const MAX_EXPRESSION_LENGTH = 21000;
export const MAX_EXPRESSION_DEPTH = 50;
export const DEFAULT_MAX_MEMORY_BYTES = 1024 * 1024;
