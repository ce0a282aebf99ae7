/**
 * The one error type of the expression layer. Messages use the official runner's wording
 * (`Unexpected symbol: 'x'. Located at position 3 within expression: 1 x`), so a user sees what
 * GitHub would show; `kind` and `code` are stable for callers (the planner reports parse errors
 * as workflow validation errors, the runner fails the step on evaluation errors).
 */

/** Where the error arose: reading tokens, building the tree, or evaluating it. */
export type ExpressionErrorKind = 'lexing' | 'parsing' | 'evaluation';

export type ExpressionErrorCode =
  | 'unexpected_symbol'
  | 'unexpected_end'
  | 'unrecognized_named_value'
  | 'unrecognized_function'
  | 'too_few_parameters'
  | 'too_many_parameters'
  | 'even_parameters'
  | 'max_depth'
  | 'max_length'
  | 'max_memory'
  | 'function_failed'
  | 'function_unavailable';

export interface ExpressionErrorOptions {
  /** 1-based position in the expression (UTF-16 units), as the runner reports it. */
  readonly position?: number | undefined;
  readonly cause?: unknown;
}

export class ExpressionError extends Error {
  readonly kind: ExpressionErrorKind;
  readonly code: ExpressionErrorCode;
  /** The expression text the error is about. */
  readonly expression: string;
  readonly position: number | undefined;

  constructor(
    kind: ExpressionErrorKind,
    code: ExpressionErrorCode,
    message: string,
    expression: string,
    options: ExpressionErrorOptions = {},
  ) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'ExpressionError';
    this.kind = kind;
    this.code = code;
    this.expression = expression;
    this.position = options.position;
  }
}

/**
 * An error a function raised on its input (a bad format string, a job that is not a
 * dependency); the evaluator turns it into an ExpressionError with the expression's text.
 */
export class FunctionFailure extends Error {}

/** The runner's text for an error located at a token. */
export function locatedMessage(
  description: string,
  token: string,
  position: number,
  expression: string,
): string {
  return `${description}: '${token}'. Located at position ${position} within expression: ${expression}`;
}
