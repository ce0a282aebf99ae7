/**
 * workflow_call inputs ("on.workflow_call.inputs", "jobs.<job_id>.with"): each declared input
 * has a `type` of boolean, number or string; a value passed with `with:` must already have that
 * type (no conversion: GitHub fails the call otherwise); a required input must be passed (a
 * default does not satisfy `required`, GitHub fails with "Input x is required, but not provided
 * while calling."); an optional input without a default is `false`, `0` or `""`; passing an
 * input the called workflow does not declare is an error.
 */
import {
  describeValue,
  foldGivenKeys,
  readDeclarations,
  type InputDeclaration,
  type InputIssue,
  type InputValue,
} from './input-declarations.js';
import { isObject } from './on-section.js';
import type { JsonValue } from './types.js';

export const CALL_INPUT_TYPES = ['boolean', 'number', 'string'] as const;

export type CallInputsResolution =
  | { readonly ok: true; readonly inputs: Readonly<Record<string, InputValue>> }
  | { readonly ok: false; readonly errors: readonly InputIssue[] };

/**
 * @param declared the called workflow's `on.workflow_call.inputs` map (undefined/null: none)
 * @param given the caller's evaluated `with:` map (undefined/null: nothing passed)
 */
export function resolveCallInputs(declared: JsonValue | undefined, given: JsonValue | undefined): CallInputsResolution {
  const issues: InputIssue[] = [];
  const declarations = readDeclarations(declared, CALL_INPUT_TYPES, undefined, issues);
  if (given !== undefined && given !== null && !isObject(given)) {
    issues.push({ input: '', code: 'shape', message: "'with' must be a map" });
  }
  const folded = foldGivenKeys(isObject(given) ? given : {}, issues);

  const inputs: [string, InputValue][] = [];
  for (const declaration of declarations) {
    const lower = declaration.name.toLowerCase();
    const supplied = folded.get(lower);
    folded.delete(lower);
    const value = resolveOne(declaration, supplied?.value, issues);
    if (value !== undefined) inputs.push([declaration.name, value]);
  }
  for (const { key } of folded.values()) {
    issues.push({ input: key, code: 'unknown', message: `Invalid input, ${key} is not defined in the referenced workflow.` });
  }
  return issues.length > 0 ? { ok: false, errors: issues } : { ok: true, inputs: Object.fromEntries(inputs) };
}

function resolveOne(declaration: InputDeclaration, supplied: JsonValue | undefined, issues: InputIssue[]): InputValue | undefined {
  const { name, type } = declaration;
  if (supplied !== undefined) {
    if (ofType(type, supplied)) return supplied;
    issues.push({ input: name, code: 'type', message: `Input ${name} must be a ${type}, got ${describeValue(supplied)}` });
    return undefined;
  }
  if (declaration.required) {
    issues.push({ input: name, code: 'required', message: `Input ${name} is required, but not provided while calling.` });
    return undefined;
  }
  const fallback = declaration.default;
  if (fallback === undefined || fallback === null) return type === 'boolean' ? false : type === 'number' ? 0 : '';
  if (ofType(type, fallback)) return fallback;
  issues.push({ input: name, code: 'declaration', message: `The default of input ${name} must be a ${type}, got ${describeValue(fallback)}` });
  return undefined;
}

function ofType(type: string, value: JsonValue): value is InputValue {
  if (type === 'boolean') return typeof value === 'boolean';
  if (type === 'number') return typeof value === 'number' && Number.isFinite(value);
  return typeof value === 'string';
}
