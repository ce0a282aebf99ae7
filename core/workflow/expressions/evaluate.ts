/**
 * Evaluating an expression against contexts, synchronously, or asynchronously when
 * `hashFiles()` needs to wait for its port.
 */
import type { AllowedNames, AllowedNamesOption } from './allowed-names.js';
import { prepareContexts, type ExpressionContexts, type PreparedContexts } from './contexts.js';
import { ExpressionError } from './errors.js';
import { evaluateTree, type HashFilesState } from './evaluator.js';
import type { HashFilesPort } from './hash-files.js';
import { DEFAULT_MAX_MEMORY_BYTES } from './limits.js';
import { parseExpression, ParsedExpression, type ParseCache } from './parse.js';
import { wrapIfCondition, type StatusContext } from './status-functions.js';
import { fromData } from './data.js';
import { isTruthy, type ExpressionValue } from './value.js';

export interface EvaluateOptions {
  /**
   * Names the expression may use (the field's list). Default: the names of the given contexts,
   * plus the status functions when `status` is set and `hashFiles` when a port is set.
   * Ignored when the expression is already parsed.
   */
  readonly allowed?: AllowedNamesOption;
  /** Enables `success()`, `failure()`, `cancelled()`, `always()`. */
  readonly status?: StatusContext;
  /** Enables `hashFiles()`. */
  readonly hashFiles?: HashFilesPort;
  /** The memory budget of one evaluation; default 1 MiB, as the runner's. */
  readonly maxMemoryBytes?: number;
  readonly cache?: ParseCache;
}

type Contexts = ExpressionContexts | PreparedContexts;

/** The hashFiles promises of one pass are awaited and the expression evaluated again. */
const MAX_ASYNC_PASSES = 16;

export function evaluateExpression(
  expression: string | ParsedExpression,
  contexts: Contexts,
  options: EvaluateOptions = {},
): ExpressionValue {
  const prepared = prepareContexts(contexts);
  const parsed = toParsed(expression, prepared, options);
  return run(parsed, prepared, options, { results: new Map() });
}

export async function evaluateExpressionAsync(
  expression: string | ParsedExpression,
  contexts: Contexts,
  options: EvaluateOptions = {},
): Promise<ExpressionValue> {
  const prepared = prepareContexts(contexts);
  const parsed = toParsed(expression, prepared, options);
  const results = new Map<string, string>();
  for (let pass = 0; pass < MAX_ASYNC_PASSES; pass++) {
    const pending = new Map<string, Promise<string>>();
    try {
      const value = run(parsed, prepared, options, { results, pending });
      if (pending.size === 0) return value;
    } catch (error) {
      // A placeholder hash may have sent the evaluation astray; only a complete pass counts.
      if (pending.size === 0) throw error;
    }
    await Promise.all(
      [...pending].map(async ([key, promise]) => {
        try {
          results.set(key, await promise);
        } catch (error) {
          const message = error instanceof Error ? error.message : String(error);
          throw new ExpressionError('evaluation', 'function_failed', message, parsed.text, {
            cause: error,
          });
        }
      }),
    );
  }
  throw new Error(`hashFiles kept asking for new hashes after ${MAX_ASYNC_PASSES} passes`);
}

/**
 * Evaluates an `if:` the way the runner (steps) and GitHub (jobs) do: with the implicit
 * `success() && (...)` when the condition has no status function, and truthiness of the result.
 */
export function evaluateIfCondition(
  condition: string,
  contexts: Contexts,
  options: EvaluateOptions & { readonly status: StatusContext },
): boolean {
  const prepared = prepareContexts(contexts);
  const allowed = options.allowed ?? defaultAllowed(prepared, options);
  return isTruthy(evaluateExpression(wrapIfCondition(condition, allowed), prepared, { ...options, allowed }));
}

export async function evaluateIfConditionAsync(
  condition: string,
  contexts: Contexts,
  options: EvaluateOptions & { readonly status: StatusContext },
): Promise<boolean> {
  const prepared = prepareContexts(contexts);
  const allowed = options.allowed ?? defaultAllowed(prepared, options);
  const wrapped = wrapIfCondition(condition, allowed);
  return isTruthy(await evaluateExpressionAsync(wrapped, prepared, { ...options, allowed }));
}

function toParsed(
  expression: string | ParsedExpression,
  prepared: PreparedContexts,
  options: EvaluateOptions,
): ParsedExpression {
  if (expression instanceof ParsedExpression) return expression;
  const allowed = options.allowed ?? defaultAllowed(prepared, options);
  return parseExpression(expression, options.cache ? { allowed, cache: options.cache } : { allowed });
}

function defaultAllowed(prepared: PreparedContexts, options: EvaluateOptions): AllowedNames {
  const functions: string[] = [];
  if (options.status) {
    const max = options.status.kind === 'job' ? 'MAX' : '0';
    functions.push('always(0,0)', 'cancelled(0,0)', `failure(0,${max})`, `success(0,${max})`);
  }
  if (options.hashFiles) functions.push('hashFiles(1,255)');
  return prepared.allowedWith(functions);
}

function run(
  parsed: ParsedExpression,
  prepared: PreparedContexts,
  options: EvaluateOptions,
  hashState: HashFilesState,
): ExpressionValue {
  const tree = ParsedExpression.treeOf(parsed);
  if (tree === undefined) return null;
  const result = evaluateTree(tree, {
    text: parsed.text,
    contexts: prepared,
    maxMemoryBytes: options.maxMemoryBytes ?? DEFAULT_MAX_MEMORY_BYTES,
    status: options.status,
    hashFiles: options.hashFiles,
    hashState,
  });
  return fromData(result);
}
