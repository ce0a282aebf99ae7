/**
 * Errors of template evaluation, worded and placed like the runner's: each problem is prefixed
 * with where it happened (`.github/workflows/ci.yml (Line: 12, Col: 15): ...`, or
 * `(Line: 12, Col: 15): ...` without a file name), at most 10 are kept, each at most 500
 * characters (then `[...]`), and the thrown error reads `The template is not valid. <first>,<second>`.
 */

/** The runner's limits for one evaluation (PipelineTemplateEvaluator). */
export const MAX_TEMPLATE_ERRORS = 10;
export const MAX_TEMPLATE_ERROR_LENGTH = 500;

export interface TemplateError {
  /** The problem without its location (`Unexpected value 'x'`). */
  readonly message: string;
  readonly file?: string;
  /** 1-based line and column of the token the problem is about. */
  readonly line?: number;
  readonly column?: number;
  /** The text as the runner shows it: location prefix and message. */
  readonly text: string;
  /** The underlying error (an ExpressionError for expression problems). */
  readonly cause?: unknown;
}

export class TemplateEvaluationError extends Error {
  readonly errors: readonly TemplateError[];

  constructor(errors: readonly TemplateError[]) {
    super(`The template is not valid. ${errors.map((error) => error.text).join(',')}`, {
      cause: errors[0]?.cause,
    });
    this.name = 'TemplateEvaluationError';
    this.errors = errors;
  }
}

/** Where a problem is: a token (its file id, line and column) or just those numbers. */
export interface TemplatePlace {
  /** 1-based index into the file table. */
  readonly file?: number | undefined;
  readonly line?: number | undefined;
  readonly col?: number | undefined;
}

/** Collects the problems of one evaluation; `check()` throws when there were any. */
export class TemplateErrorList {
  readonly #errors: TemplateError[] = [];
  readonly #fileTable: readonly string[];
  readonly #maxMessageLength: number;

  /** `maxMessageLength` 0 keeps messages whole (the runner does so for action manifests). */
  constructor(fileTable: readonly string[] = [], maxMessageLength = MAX_TEMPLATE_ERROR_LENGTH) {
    this.#fileTable = fileTable;
    this.#maxMessageLength = maxMessageLength;
  }

  get count(): number {
    return this.#errors.length;
  }

  add(place: TemplatePlace | undefined, problem: unknown): void {
    if (this.#errors.length >= MAX_TEMPLATE_ERRORS) return;
    const message = problem instanceof Error ? problem.message : String(problem);
    const file = place?.file === undefined ? undefined : this.#fileTable[place.file - 1];
    const line = place?.line;
    const column = place?.col;
    const at = line !== undefined && column !== undefined ? `(Line: ${line}, Col: ${column})` : undefined;
    const prefix = file ? (at ? `${file} ${at}:` : `${file}:`) : at ? `${at}:` : '';
    let text = prefix ? `${prefix} ${message}` : message;
    if (this.#maxMessageLength > 0 && text.length > this.#maxMessageLength) {
      text = `${text.slice(0, this.#maxMessageLength)}[...]`;
    }
    this.#errors.push({
      message,
      ...(file === undefined ? {} : { file }),
      ...(line === undefined ? {} : { line }),
      ...(column === undefined ? {} : { column }),
      text,
      ...(problem instanceof Error ? { cause: problem } : {}),
    });
  }

  /** The error listing the problems so far, undefined when there is none. */
  toError(): TemplateEvaluationError | undefined {
    return this.#errors.length > 0 ? new TemplateEvaluationError([...this.#errors]) : undefined;
  }

  check(): void {
    const error = this.toError();
    if (error) throw error;
  }
}
