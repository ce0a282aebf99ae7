import { RunnerProtocolError } from './http-error.js';

// Answers are validated before the runner relies on them (STYLE.md: validation at every edge).
// Extra members are allowed everywhere: servers send more than the runner reads.
//
// The wire shapes (core/protocol's and this folder's) use a small part of JSON Schema, which is
// interpreted here instead of compiled by ajv: the listener validates a handful of answers an
// hour, and ajv with its generated validators is ~10 MB of an idle listener's memory (npm run
// bench:runner). A schema with any other keyword is refused when its validator is made, so no
// keyword is ever silently ignored.

export type Validator<T> = (value: unknown, what: string) => T;

type JsonType = 'object' | 'array' | 'string' | 'integer' | 'number' | 'boolean' | 'null';

interface WireSchema {
  readonly type?: JsonType | readonly JsonType[];
  readonly required?: readonly string[];
  readonly properties?: Readonly<Record<string, WireSchema>>;
  readonly items?: WireSchema;
  readonly anyOf?: readonly WireSchema[];
  readonly enum?: readonly unknown[];
  readonly pattern?: string;
  readonly minLength?: number;
  readonly maxLength?: number;
  readonly minimum?: number;
  readonly maximum?: number;
}

const KEYWORDS = new Set(['type', 'required', 'properties', 'items', 'anyOf', 'enum', 'pattern', 'minLength', 'maxLength', 'minimum', 'maximum', 'description', 'title', '$comment']);
const TYPES = new Set<string>(['object', 'array', 'string', 'integer', 'number', 'boolean', 'null']);

/** A checker for one wire shape; it throws RunnerProtocolError naming `what` and every problem. */
export function wireValidator<T>(schema: object): Validator<T> {
  const problemsOf = schemaProblems(schema);
  return (value, what) => {
    const problems = problemsOf(value);
    if (problems.length === 0) return value as T;
    throw new RunnerProtocolError(`${what} is not what the runner expects: ${problems.join('; ')}`);
  };
}

/** Every way `value` breaks the schema (`<path> <problem>`, ajv's wording); empty when it fits. */
export function schemaProblems(schema: object): (value: unknown) => string[] {
  const checked = checkSchema(schema, '#');
  return (value) => {
    const problems: string[] = [];
    validate(checked, value, '', problems);
    return problems;
  };
}

/** The schema as the validator reads it, patterns compiled; throws on anything it cannot honour. */
interface Checked {
  readonly schema: WireSchema;
  readonly types: readonly JsonType[] | undefined;
  readonly pattern: RegExp | undefined;
  readonly properties: ReadonlyMap<string, Checked>;
  readonly items: Checked | undefined;
  readonly anyOf: readonly Checked[] | undefined;
}

function checkSchema(value: unknown, at: string): Checked {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new TypeError(`wire schema ${at} is not an object`);
  for (const keyword of Object.keys(value)) if (!KEYWORDS.has(keyword)) throw new TypeError(`wire schema ${at} uses '${keyword}', which the runner's validator does not implement`);
  const schema = value as WireSchema;
  const types = schema.type === undefined ? undefined : typeof schema.type === 'string' ? [schema.type] : schema.type;
  for (const type of types ?? []) if (!TYPES.has(type)) throw new TypeError(`wire schema ${at} has unknown type '${type}'`);
  const properties = new Map(Object.entries(schema.properties ?? {}).map(([name, sub]) => [name, checkSchema(sub, `${at}/properties/${name}`)] as const));
  return {
    schema,
    types,
    pattern: schema.pattern === undefined ? undefined : new RegExp(schema.pattern, 'u'),
    properties,
    items: schema.items === undefined ? undefined : checkSchema(schema.items, `${at}/items`),
    anyOf: schema.anyOf?.map((sub, index) => checkSchema(sub, `${at}/anyOf/${index}`)),
  };
}

function typeOf(value: unknown): JsonType | 'other' {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'number') return Number.isInteger(value) ? 'integer' : 'number';
  if (typeof value === 'string' || typeof value === 'boolean' || typeof value === 'object') return typeof value as JsonType;
  return 'other';
}

function validate(checked: Checked, value: unknown, path: string, problems: string[]): void {
  const { schema } = checked;
  const where = path === '' ? '(root)' : path;
  const type = typeOf(value);
  if (checked.types !== undefined && !checked.types.some((wanted) => wanted === type || (wanted === 'number' && type === 'integer'))) {
    problems.push(`${where} must be ${checked.types.join(',')}`);
    return;
  }
  if (schema.enum !== undefined && !schema.enum.some((allowed) => allowed === value)) problems.push(`${where} must be equal to one of the allowed values`);
  if (typeof value === 'string') {
    const length = [...value].length;
    if (schema.minLength !== undefined && length < schema.minLength) problems.push(`${where} must NOT have fewer than ${schema.minLength} characters`);
    if (schema.maxLength !== undefined && length > schema.maxLength) problems.push(`${where} must NOT have more than ${schema.maxLength} characters`);
    if (checked.pattern !== undefined && !checked.pattern.test(value)) problems.push(`${where} must match pattern "${schema.pattern ?? ''}"`);
  }
  if (typeof value === 'number') {
    if (schema.minimum !== undefined && value < schema.minimum) problems.push(`${where} must be >= ${schema.minimum}`);
    if (schema.maximum !== undefined && value > schema.maximum) problems.push(`${where} must be <= ${schema.maximum}`);
  }
  if (type === 'object') {
    const object = value as Record<string, unknown>;
    for (const name of schema.required ?? []) if (!Object.hasOwn(object, name)) problems.push(`${where} must have required property '${name}'`);
    for (const [name, sub] of checked.properties) if (Object.hasOwn(object, name)) validate(sub, object[name], `${path}/${name}`, problems);
  }
  if (type === 'array' && checked.items !== undefined) {
    for (const [index, item] of (value as unknown[]).entries()) validate(checked.items, item, `${path}/${index}`, problems);
  }
  if (checked.anyOf !== undefined && !checked.anyOf.some((sub) => matches(sub, value, path))) problems.push(`${where} must match a schema in anyOf`);
}

function matches(checked: Checked, value: unknown, path: string): boolean {
  const problems: string[] = [];
  validate(checked, value, path, problems);
  return problems.length === 0;
}
