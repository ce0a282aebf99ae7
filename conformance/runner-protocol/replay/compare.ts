/**
 * One answer against one expectation: status, headers, the body's form (empty, JSON with the
 * content type the runner insists on, a VSS wrapped list), its JSON Schema (non-semantic fields by
 * format), unknown members (ignored by the runner's reader unless a definition says otherwise)
 * and the semantic match. Returns every difference, in that order; none means the answer passes.
 */
import type { Ajv, AnySchema, ValidateFunction } from 'ajv';
import { archiveEntries } from './archive.js';
import { matchValue } from './match.js';
import type { BodyExpectation, Expectation, JsonObject, JsonValue } from './scenario-types.js';

export interface Answer {
  readonly status: number;
  /** Header names in lower case. */
  readonly headers: Readonly<Record<string, string>>;
  /** The body as UTF-8 text. */
  readonly text: string;
  /** The body's bytes (archives). */
  readonly bytes: Buffer;
  readonly elapsedMs: number;
}

/** An answer with its body read: JSON, NDJSON lines, text lines or an archive's entry names; undefined when empty. */
export interface ReadAnswer extends Answer {
  readonly body: JsonValue | undefined;
}

const JSON_TYPE = /^application\/json\b/i;

export function isEmptyAnswer(answer: Answer): boolean {
  return answer.status >= 200 && answer.status < 300 && answer.text === '';
}

/** Reads the body the way the expectation says it is written; a body that cannot be read is a difference. */
export function readBody(answer: Answer, format: BodyExpectation['format'] = 'json'): { body: JsonValue | undefined; error?: string } {
  if (answer.text === '') return { body: undefined };
  try {
    if (format === 'archive') return { body: archiveEntries(answer.bytes) };
    if (format === 'text') return { body: answer.text.split('\n').filter((line) => line !== '') };
    if (format === 'ndjson') return { body: answer.text.split('\n').filter((line) => line.trim() !== '').map((line) => JSON.parse(line) as JsonValue) };
    return { body: JSON.parse(answer.text) as JsonValue };
  } catch (error) {
    const what = format === 'archive' ? 'a tar or tar.gz' : format === 'ndjson' ? 'NDJSON' : 'JSON';
    return { body: undefined, error: `the body is not ${what} (${(error as Error).message}): ${format === 'archive' ? `${answer.bytes.length} bytes` : answer.text.slice(0, 200)}` };
  }
}

function asObject(value: unknown): JsonObject | undefined {
  return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as JsonObject) : undefined;
}

/** Members of `value` its schema does not declare (followed through `$ref`, `allOf`/`anyOf`/`oneOf`, `items`). */
export function undeclaredMembers(schema: unknown, value: JsonValue | undefined, ajv: Ajv, path = ''): string[] {
  const node = asObject(schema);
  if (node === undefined || value === undefined) return [];
  if (typeof node['$ref'] === 'string') {
    const target = ajv.getSchema(node['$ref'])?.schema;
    return undeclaredMembers(target, value, ajv, path);
  }
  const parts = (['allOf', 'anyOf', 'oneOf'] as const).flatMap((key) => (Array.isArray(node[key]) ? (node[key] as JsonValue[]) : []));
  const declared = new Map<string, unknown>();
  let open = false;
  let additional: JsonObject | undefined;
  for (const part of [node, ...parts]) {
    const object = asObject(part);
    const resolved = typeof object?.['$ref'] === 'string' ? asObject(ajv.getSchema(object['$ref'])?.schema) : object;
    for (const [key, sub] of Object.entries(asObject(resolved?.['properties']) ?? {})) declared.set(key, sub);
    if (resolved?.['additionalProperties'] === true) open = true;
    additional ??= asObject(resolved?.['additionalProperties']);
  }
  const found: string[] = [];
  if (Array.isArray(value)) {
    value.forEach((item, index) => found.push(...undeclaredMembers(node['items'], item, ajv, `${path}[${index}]`)));
    return found;
  }
  const object = asObject(value);
  if (object === undefined) return found;
  for (const [key, item] of Object.entries(object)) {
    const at = path === '' ? key : `${path}.${key}`;
    if (declared.has(key)) found.push(...undeclaredMembers(declared.get(key), item, ajv, at));
    else if (additional) found.push(...undeclaredMembers(additional, item, ajv, at));
    else if (declared.size > 0 && !open) found.push(at);
  }
  return found;
}

export class Comparator {
  readonly #cache = new Map<string, ValidateFunction>();

  constructor(readonly ajv: Ajv) {}

  #validator(schema: JsonObject): ValidateFunction {
    const key = JSON.stringify(schema);
    let validate = this.#cache.get(key);
    if (!validate) {
      validate = this.ajv.compile(schema as AnySchema);
      this.#cache.set(key, validate);
    }
    return validate;
  }

  /** Every difference between the answer and the (substituted) expectation. */
  compare(expect: Expectation, answer: Answer): string[] {
    const failures: string[] = [];
    const statuses = expect.status === undefined ? undefined : Array.isArray(expect.status) ? expect.status : [expect.status];
    if (statuses && !statuses.includes(answer.status)) {
      failures.push(`status ${answer.status}, expected ${statuses.join(' or ')}${answer.text === '' ? '' : `: ${answer.text.slice(0, 300)}`}`);
      return failures;
    }
    for (const [name, matcher] of Object.entries(expect.headers ?? {})) {
      failures.push(...matchValue(matcher, answer.headers[name.toLowerCase()], `header ${name}`));
    }
    if (expect.elapsedMs?.min !== undefined && answer.elapsedMs < Number(expect.elapsedMs.min)) {
      failures.push(`answered after ${Math.round(answer.elapsedMs)} ms, expected a hold of at least ${Number(expect.elapsedMs.min)} ms`);
    }
    if (expect.elapsedMs?.max !== undefined && answer.elapsedMs > Number(expect.elapsedMs.max)) {
      failures.push(`answered after ${Math.round(answer.elapsedMs)} ms, expected at most ${Number(expect.elapsedMs.max)} ms`);
    }
    if (expect.body) failures.push(...this.compareBody(expect.body, answer));
    return failures;
  }

  compareBody(expect: BodyExpectation, answer: Answer): string[] {
    const empty = answer.text === '';
    if (expect.empty === true) return empty ? [] : [`expected an empty answer (no message), got ${answer.text.slice(0, 200)}`];
    if (empty) return expect.empty === 'allowed' ? [] : ['expected a body, got an empty answer'];
    const format = expect.format ?? 'json';
    const type = answer.headers['content-type'] ?? '';
    if (format === 'json' && !JSON_TYPE.test(type)) return [`a non-empty answer must be Content-Type application/json (the runner refuses others), got '${type}'`];
    const { body, error } = readBody(answer, format);
    if (error !== undefined) return [error];
    return this.compareValue(expect, body);
  }

  /** A read body (or any value the runner holds) against the wrapped-list rule, the schema, unknown members and the match. */
  compareValue(expect: Pick<BodyExpectation, 'wrapped' | 'schema' | 'match' | 'unknownFields'>, body: JsonValue | undefined): string[] {
    const failures: string[] = [];
    if (expect.wrapped) {
      const list = asObject(body);
      const value = list?.['value'];
      if (!Array.isArray(value)) return [`expected a wrapped list {count, value}, got ${JSON.stringify(body).slice(0, 200)}`];
      if (list?.['count'] !== value.length) failures.push(`wrapped list: count ${JSON.stringify(list?.['count'])} but ${value.length} values`);
    }
    if (expect.schema) {
      const validate = this.#validator(expect.schema);
      if (!validate(body)) {
        for (const problem of validate.errors ?? []) failures.push(`${problem.instancePath || '(root)'} ${problem.message ?? 'is not valid'}`);
      }
      if (expect.unknownFields === 'fail') {
        for (const member of undeclaredMembers(expect.schema, body, this.ajv)) failures.push(`${member}: a member the definition does not know`);
      }
    }
    if (expect.match !== undefined) failures.push(...matchValue(expect.match, body));
    return failures;
  }
}
