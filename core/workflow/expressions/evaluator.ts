/**
 * The package's evaluator with what the runner adds: the memory budget, contexts read lazily
 * (a context that was allowed but not given reads as null), the status functions and
 * `hashFiles()`, and errors turned into ExpressionErrors with the runner's text.
 */
import { Evaluator } from '@actions/expressions';
import type { Expr } from '@actions/expressions';
import type { ContextAccess, FunctionCall } from '@actions/expressions/ast';
import type { FunctionDefinition } from '@actions/expressions/funcs/info';
import { BUILTIN_FUNCTIONS } from './builtin-functions.js';
import type { PreparedContexts } from './contexts.js';
import { ExpressionError, FunctionFailure } from './errors.js';
import { hashFilesRequest, type HashFilesPort } from './hash-files.js';
import { EvaluationMemory } from './memory.js';
import { STATUS_FUNCTIONS, statusFunction, type StatusContext } from './status-functions.js';
import { booleanData, NULL, RunnerDictionary, RunnerString, type Data } from './data.js';

export interface HashFilesState {
  /** Results known so far, by request key. */
  readonly results: Map<string, string>;
  /** Set for asynchronous evaluation: requests whose promise is still out. */
  readonly pending?: Map<string, Promise<string>>;
}

export interface EvaluationEnvironment {
  readonly text: string;
  readonly contexts: PreparedContexts;
  readonly maxMemoryBytes: number;
  readonly status?: StatusContext | undefined;
  readonly hashFiles?: HashFilesPort | undefined;
  readonly hashState?: HashFilesState | undefined;
}

const NO_CONTEXTS = new RunnerDictionary();
// The package only reads the map; its constructor is typed with a mutable Map.
const FUNCTIONS = BUILTIN_FUNCTIONS as Map<string, FunctionDefinition>;

class RunnerEvaluator extends Evaluator {
  private level = 0;
  private readonly memory: EvaluationMemory;

  constructor(
    tree: Expr,
    private readonly env: EvaluationEnvironment,
  ) {
    super(tree, NO_CONTEXTS, FUNCTIONS);
    this.memory = new EvaluationMemory(env.maxMemoryBytes, env.text);
  }

  protected override eval(node: Expr): Data {
    const level = this.level++;
    try {
      const result = super.eval(node);
      this.memory.addResult(level, result);
      return result;
    } finally {
      this.level--;
    }
  }

  override visitContextAccess(node: ContextAccess): Data {
    return this.env.contexts.get(node.name.lexeme) ?? NULL;
  }

  override visitFunctionCall(node: FunctionCall): Data {
    const name = node.functionName.lexeme.toLowerCase();
    if (FUNCTIONS.has(name)) return super.visitFunctionCall(node);
    const args = node.args.map((arg) => this.eval(arg).coerceString());
    if (STATUS_FUNCTIONS.has(name) && this.env.status) {
      return booleanData(statusFunction(name, args, this.env.status));
    }
    if (name === 'hashfiles' && this.env.hashFiles) return this.hashFiles(this.env.hashFiles, args);
    throw new ExpressionError(
      'evaluation',
      'function_unavailable',
      `The function '${node.functionName.lexeme}' cannot be evaluated here`,
      this.env.text,
    );
  }

  private hashFiles(port: HashFilesPort, args: string[]): Data {
    const request = hashFilesRequest(args);
    const state = this.env.hashState;
    const known = state?.results.get(request.key);
    if (known !== undefined) return new RunnerString(known);
    const result = port.hash(request.patterns, request.options);
    if (typeof result === 'string') {
      state?.results.set(request.key, result);
      return new RunnerString(result);
    }
    if (!state?.pending) {
      result.catch(() => undefined); // nobody awaits it; do not leave a rejection unhandled
      throw new TypeError('hashFiles returned a promise: use evaluateExpressionAsync');
    }
    state.pending.set(request.key, result);
    return new RunnerString(''); // placeholder; the expression is evaluated again with the result
  }
}

/** Evaluates a parsed, non-empty tree. */
export function evaluateTree(tree: Expr, env: EvaluationEnvironment): Data {
  try {
    return new RunnerEvaluator(tree, env).evaluate();
  } catch (error) {
    throw toExpressionError(error, env.text);
  }
}

/**
 * Errors from functions arrive as FunctionFailure, possibly wrapped by the package's index
 * access ("could not evaluate index ..."); anything else is a bug and passes through unchanged.
 */
export function toExpressionError(error: unknown, text: string): unknown {
  for (let cause = error; cause instanceof Error; cause = cause.cause) {
    if (cause instanceof ExpressionError) return cause;
    if (cause instanceof FunctionFailure) {
      return new ExpressionError('evaluation', 'function_failed', cause.message, text, { cause });
    }
  }
  return error;
}
