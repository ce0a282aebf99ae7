/**
 * Declared inputs of `on.workflow_dispatch.inputs` and `on.workflow_call.inputs`, read from
 * plain data, and the issue type both resolvers report.
 */
import { isObject } from './on-section.js';
import type { JsonObject, JsonValue } from './types.js';

/** A resolved input value: inputs keep their declared type (the `inputs` context). */
export type InputValue = string | number | boolean;

export type InputIssueCode =
  /** A required input is missing. */
  | 'required'
  /** A value cannot be converted to (or is not of) the declared type. */
  | 'type'
  /** A choice value is not one of `options`. */
  | 'choice'
  /** An input the workflow does not declare (workflow_call; workflow_dispatch when the caller refuses them). */
  | 'unknown'
  /** The given inputs are not a map, or two keys differ only by case. */
  | 'shape'
  /** The workflow's own declaration is malformed (unknown type, bad default, no options). */
  | 'declaration';

export interface InputIssue {
  /** The input's name ('' for the whole inputs object). */
  readonly input: string;
  readonly code: InputIssueCode;
  readonly message: string;
}

export interface InputDeclaration {
  readonly name: string;
  readonly type: string;
  readonly required: boolean;
  /** The declared default, undefined when none is declared. */
  readonly default: JsonValue | undefined;
  readonly options: readonly string[] | undefined;
}

/**
 * Reads the declarations, reporting malformed ones. `defaultType` applies when `type` is omitted
 * (workflow_dispatch: string); undefined makes `type` required (workflow_call).
 */
export function readDeclarations(
  declared: JsonValue | undefined,
  allowedTypes: readonly string[],
  defaultType: string | undefined,
  issues: InputIssue[],
): readonly InputDeclaration[] {
  if (declared === undefined || declared === null) return [];
  if (!isObject(declared)) {
    issues.push({ input: '', code: 'declaration', message: 'the declared inputs must be a map' });
    return [];
  }
  const result: InputDeclaration[] = [];
  for (const [name, raw] of Object.entries(declared)) {
    const bad = (message: string): void => {
      issues.push({ input: name, code: 'declaration', message: `input '${name}': ${message}` });
    };
    if (raw !== null && !isObject(raw)) {
      bad('the declaration must be a map');
      continue;
    }
    const spec: JsonObject = raw ?? {};
    const type = spec['type'] ?? defaultType;
    if (typeof type !== 'string' || !allowedTypes.includes(type)) {
      bad(type === undefined ? 'a type is required' : `type must be one of ${allowedTypes.join(', ')}`);
      continue;
    }
    const required = spec['required'] ?? false;
    if (typeof required !== 'boolean') bad('required must be true or false');
    const options = spec['options'];
    let optionList: readonly string[] | undefined;
    if (options !== undefined) {
      if (!Array.isArray(options) || !options.every((o): o is string => typeof o === 'string')) {
        bad('options must be a list of strings');
      } else {
        optionList = options;
      }
    }
    if (type === 'choice' && (optionList === undefined || optionList.length === 0)) bad("a choice input needs 'options'");
    result.push({ name, type, required: required === true, default: spec['default'], options: optionList });
  }
  return result;
}

/**
 * Pairs given keys with declared names case-insensitively (contexts are case-insensitive), so
 * `LogLevel` fills `logLevel`. Returns the given map keyed by lower-cased name.
 */
export function foldGivenKeys(given: JsonObject, issues: InputIssue[]): Map<string, { key: string; value: JsonValue }> {
  const folded = new Map<string, { key: string; value: JsonValue }>();
  for (const [key, value] of Object.entries(given)) {
    const lower = key.toLowerCase();
    const earlier = folded.get(lower);
    if (earlier) {
      issues.push({ input: key, code: 'shape', message: `inputs '${earlier.key}' and '${key}' differ only by case` });
      continue;
    }
    folded.set(lower, { key, value });
  }
  return folded;
}

/** A short rendering of a value for messages. */
export function describeValue(value: JsonValue): string {
  if (typeof value === 'string') return `'${value}'`;
  if (value === null || typeof value !== 'object') return String(value);
  return Array.isArray(value) ? 'a list' : 'a map';
}
