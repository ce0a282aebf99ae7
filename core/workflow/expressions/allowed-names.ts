/**
 * Which named values (contexts) and extra functions an expression may use. Every workflow field
 * has its own list; the workflow schema writes them as `github`, `needs`, `hashFiles(1,255)`,
 * `success(0,MAX)` and this module reads that notation. Built-in functions (`contains`,
 * `format`, `toJSON`, ...) are always allowed. An unknown name is a parse error with the runner's
 * wording (`Unrecognized named-value: 'env'. Located at position ...`).
 */

export interface FunctionSignature {
  readonly name: string;
  readonly minArgs: number;
  readonly maxArgs: number;
}

export interface AllowedNames {
  /** Stable identity of the list, part of the parse-cache key. */
  readonly key: string;
  readonly contexts: readonly string[];
  readonly functions: readonly FunctionSignature[];
}

const FUNCTION_ENTRY = /^([a-zA-Z0-9_]+)\(([0-9]+),([0-9]+|MAX)\)$/;
const CONTEXT_NAME = /^[a-zA-Z_][a-zA-Z0-9_-]*$/;

/** Whether an expression can name this context (the runner's keyword rule). */
export function isContextName(name: string): boolean {
  return CONTEXT_NAME.test(name);
}

/**
 * Builds the allowed names from the schema notation: `name` for a context, `fn(min,max)` or
 * `fn(min,MAX)` for a function. Create it once per field kind and reuse it.
 */
export function allowedNames(entries: readonly string[]): AllowedNames {
  const contexts: string[] = [];
  const functions: FunctionSignature[] = [];
  for (const entry of entries) {
    const match = FUNCTION_ENTRY.exec(entry);
    if (match) {
      const [, name = '', min = '0', max = '0'] = match;
      functions.push({
        name,
        minArgs: Number(min),
        maxArgs: max === 'MAX' ? Number.MAX_SAFE_INTEGER : Number(max),
      });
    } else if (isContextName(entry)) {
      contexts.push(entry);
    } else {
      throw new TypeError(`not a context name or function signature: '${entry}'`);
    }
  }
  const key = entries
    .map((entry) => entry.toLowerCase())
    .sort()
    .join(',');
  return { key, contexts, functions };
}

/** Allows every name: parse for syntax only (linting, `wrapIfCondition`). */
export const ANY_NAMES = 'any';
export type AllowedNamesOption = AllowedNames | typeof ANY_NAMES;

// The lists below are the workflow schema's (`@actions/workflow-parser`, workflow-v1.0.json).

/** Named values and functions of a job-level `if:`. */
export const JOB_IF_NAMES: AllowedNames = allowedNames([
  'github',
  'inputs',
  'vars',
  'needs',
  'always(0,0)',
  'failure(0,MAX)',
  'cancelled(0,0)',
  'success(0,MAX)',
]);

/** Named values and functions of a step-level `if:`. */
export const STEP_IF_NAMES: AllowedNames = allowedNames([
  'github',
  'inputs',
  'vars',
  'needs',
  'strategy',
  'matrix',
  'steps',
  'job',
  'runner',
  'env',
  'always(0,0)',
  'failure(0,0)',
  'cancelled(0,0)',
  'success(0,0)',
  'hashFiles(1,255)',
]);

/** Named values and functions of most step fields (`run`, `with`, `env`, `name`, ...). */
export const STEP_NAMES: AllowedNames = allowedNames([
  'github',
  'inputs',
  'vars',
  'needs',
  'strategy',
  'matrix',
  'secrets',
  'steps',
  'job',
  'runner',
  'env',
  'hashFiles(1,255)',
]);
