/**
 * workflow_dispatch inputs (spec: "Input handling"; GitHub: "on.workflow_dispatch.inputs",
 * "Providing inputs"): values convert to the declared type, a boolean or choice value must be
 * one of its allowed values, an omitted input takes its declared default (a required one too:
 * GitHub fills the default in before it checks `required`), and only a required input without a
 * default must be given.
 *
 * Keys the workflow does not declare are the caller's choice: GitHub's dispatch API refuses them
 * ("Unexpected inputs provided: [...]"), which `unexpected: 'refuse'` does; the spec's
 * forge-shaped dispatch keeps them in the event payload, the default.
 *
 * Two views come out, as on GitHub: `inputs` (the `inputs` context: booleans stay booleans,
 * numbers become numbers) and `payload` (`github.event.inputs`: every declared value as a
 * string, undeclared keys as given).
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
import type { JsonObject, JsonValue } from './types.js';

export const DISPATCH_INPUT_TYPES = ['string', 'boolean', 'number', 'choice', 'environment'] as const;

export type DispatchInputsResolution =
  | {
      readonly ok: true;
      readonly inputs: Readonly<Record<string, InputValue>>;
      readonly payload: Readonly<Record<string, JsonValue>>;
    }
  | { readonly ok: false; readonly errors: readonly InputIssue[] };

const DECIMAL = /^[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?$/;

/** What to do with given keys the workflow does not declare. */
export type UnexpectedInputs = 'keep' | 'refuse';

export interface DispatchInputsOptions {
  /** `keep` (default): in the event payload only; `refuse`: one issue naming every such key. */
  readonly unexpected?: UnexpectedInputs;
}

/**
 * @param declared the workflow's `on.workflow_dispatch.inputs` map (undefined/null: none)
 * @param given the request's `inputs` object (undefined/null: none given)
 */
export function resolveDispatchInputs(
  declared: JsonValue | undefined,
  given: JsonValue | undefined,
  options: DispatchInputsOptions = {},
): DispatchInputsResolution {
  const issues: InputIssue[] = [];
  const declarations = readDeclarations(declared, DISPATCH_INPUT_TYPES, 'string', issues);
  if (given !== undefined && given !== null && !isObject(given)) {
    issues.push({ input: '', code: 'shape', message: "'inputs' must be an object" });
  }
  const givenMap: JsonObject = isObject(given) ? given : {};
  const folded = foldGivenKeys(givenMap, issues);

  // Entry lists turned into objects at the end: a key such as `__proto__` stays a plain key.
  const inputs: [string, InputValue][] = [];
  const payload: [string, JsonValue][] = [];
  for (const declaration of declarations) {
    const lower = declaration.name.toLowerCase();
    const supplied = folded.get(lower);
    folded.delete(lower);
    const resolved = resolveOne(declaration, supplied?.value ?? null, issues);
    if (resolved) {
      inputs.push([declaration.name, resolved.value]);
      payload.push([declaration.name, resolved.text]);
    }
  }
  const unexpected = [...folded.values()];
  if (options.unexpected === 'refuse' && unexpected.length > 0) {
    // GitHub's wording: one message, every name as a JSON string.
    const names = unexpected.map(({ key }) => JSON.stringify(key)).join(', ');
    issues.push({ input: '', code: 'unknown', message: `Unexpected inputs provided: [${names}]` });
  }
  // Kept, they are in the event payload (spec), not in the inputs context.
  for (const { key, value } of unexpected) payload.push([key, value]);

  if (issues.length > 0) return { ok: false, errors: issues };
  return { ok: true, inputs: Object.fromEntries(inputs), payload: Object.fromEntries(payload) };
}

interface Resolved {
  readonly value: InputValue;
  /** The value as `github.event.inputs` carries it. */
  readonly text: string;
}

interface Rejected {
  readonly code: 'type' | 'choice';
  /** Completes `input '<name>' ...` (and `the default of input '<name>' ...`). */
  readonly detail: string;
  /** GitHub's own message for the given value, when it has one. */
  readonly message?: string;
}

function resolveOne(declaration: InputDeclaration, supplied: JsonValue, issues: InputIssue[]): Resolved | undefined {
  const { name } = declaration;
  if (supplied !== null) {
    const converted = convert(declaration, supplied);
    if ('detail' in converted) {
      issues.push({ input: name, code: converted.code, message: converted.message ?? `input '${name}' ${converted.detail}` });
      return undefined;
    }
    return converted;
  }
  if (declaration.default !== undefined && declaration.default !== null) {
    const converted = convert(declaration, declaration.default);
    if ('detail' in converted) {
      issues.push({ input: name, code: 'declaration', message: `the default of input '${name}' ${converted.detail}` });
      return undefined;
    }
    return converted;
  }
  if (declaration.required) {
    issues.push({ input: name, code: 'required', message: `Required input '${name}' not provided` });
    return undefined;
  }
  return typeDefault(declaration);
}

/** GitHub's implicit values for an optional input without a default. */
function typeDefault(declaration: InputDeclaration): Resolved {
  switch (declaration.type) {
    case 'boolean':
      return { value: false, text: 'false' };
    case 'number':
      return { value: 0, text: '0' };
    case 'choice': {
      // The web form preselects the first option; API dispatches get the same.
      const first = declaration.options?.[0] ?? '';
      return { value: first, text: first };
    }
    default:
      return { value: '', text: '' };
  }
}

/**
 * Converts a value to the declared type, or says why it cannot. A boolean is a choice of `true`
 * and `false` to GitHub, which words both refusals alike ("Provided value '' for input 'debug'
 * not in the list of allowed values"); the allowed values are added so the message can be acted on.
 */
function convert(declaration: InputDeclaration, value: JsonValue): Resolved | Rejected {
  const notAllowed = (allowed: readonly string[], code: Rejected['code']): Rejected => ({
    code,
    detail: `must be one of [${allowed.join(', ')}], got ${describeValue(value)}`,
    message: `Provided value ${describeValue(value)} for input '${declaration.name}' not in the list of allowed values: [${allowed.join(', ')}]`,
  });
  switch (declaration.type) {
    case 'boolean':
      if (value === true || value === 'true') return { value: true, text: 'true' };
      if (value === false || value === 'false') return { value: false, text: 'false' };
      return notAllowed(['true', 'false'], 'type');
    case 'number': {
      if (typeof value === 'number' && Number.isFinite(value)) return { value, text: String(value) };
      if (typeof value === 'string' && DECIMAL.test(value.trim())) {
        const parsed = Number(value.trim());
        if (Number.isFinite(parsed)) return { value: parsed, text: value };
      }
      return { code: 'type', detail: `must be a number, got ${describeValue(value)}` };
    }
    default: {
      if (typeof value !== 'string' && typeof value !== 'number' && typeof value !== 'boolean') {
        return { code: 'type', detail: `must be a string, got ${describeValue(value)}` };
      }
      const text = String(value);
      const options = declaration.options ?? [];
      if (declaration.type === 'choice' && !options.includes(text)) return notAllowed(options, 'choice');
      return { value: text, text };
    }
  }
}
