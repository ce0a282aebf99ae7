/**
 * Checks a request and a response against an operation of GitHub's OpenAPI description with ajv:
 * path, query and header parameters (typed from their strings, unknown query parameters refused),
 * the request body and the media types asked for; the response status, its media type, its body
 * (JSON against the schema; a documented text type as text; none where none is documented) and
 * its documented headers. Answers the problems found, in words; an empty list means it matches.
 */
import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';
import type { JsonSchema, OpenApiDescription, OpenApiOperation, OpenApiResponse } from './openapi-description.js';
import { componentsDocument, toJsonSchema } from './openapi-schemas.js';

export interface RequestFacts {
  readonly path: Readonly<Record<string, string>>;
  readonly query: Readonly<Record<string, string | readonly string[]>>;
  /** Lower-case names. */
  readonly headers: Readonly<Record<string, string | readonly string[] | undefined>>;
  readonly body: Buffer;
}

export interface ResponseFacts {
  readonly status: number;
  /** Lower-case names. */
  readonly headers: Readonly<Record<string, string>>;
  readonly body: Buffer;
}

const BASE = 'https://forge-simulator.invalid/openapi';
/** Media types that ask for the default JSON representation. */
const DEFAULT_MEDIA = new Set(['*/*', 'application/*', 'application/json', 'application/vnd.github+json', 'application/vnd.github.v3+json']);

function mediaType(value: string | undefined): string | undefined {
  const type = value?.split(';')[0]?.trim().toLowerCase();
  return type === undefined || type === '' ? undefined : type;
}

function isJson(type: string): boolean {
  return type === 'application/json' || type.endsWith('+json');
}

function addFormats(ajv: Ajv): void {
  ajv.addFormat('date-time', /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d+)?(?:Z|[+-]\d{2}:\d{2})$/i);
  ajv.addFormat('date', /^\d{4}-\d{2}-\d{2}$/);
  ajv.addFormat('uri', { type: 'string', validate: (value: string) => URL.canParse(value) });
  ajv.addFormat('email', /^[^\s@]+@[^\s@]+$/);
  ajv.addFormat('repo.nwo', /^[^/\s]+\/[^/\s]+$/);
  for (const loose of ['uri-template', 'binary', 'timestamp']) ajv.addFormat(loose, true);
  for (const numeric of ['int32', 'int64', 'double', 'float']) ajv.addFormat(numeric, { type: 'number', validate: () => true });
}

function newAjv(description: OpenApiDescription, coerceTypes: boolean): Ajv {
  // strict off: the description carries keywords of its own; its schemas are not re-validated (13 MB).
  const ajv = new Ajv({ strict: false, allErrors: true, validateSchema: false, logger: false, coerceTypes });
  addFormats(ajv);
  ajv.addSchema(componentsDocument(description.components, BASE) as Record<string, unknown>);
  return ajv;
}

function describeErrors(where: string, errors: readonly ErrorObject[] | null | undefined): string {
  const list = (errors ?? []).slice(0, 5).map((error) => `${where}${error.instancePath} ${error.message ?? 'is invalid'}${error.params && 'additionalProperty' in error.params ? ` ('${String(error.params['additionalProperty'])}')` : ''}`);
  return list.join('; ');
}

export class OpenApiValidator {
  readonly #strict: Ajv;
  readonly #coercing: Ajv;
  readonly #compiled = new Map<string, ValidateFunction>();

  constructor(description: OpenApiDescription) {
    this.#strict = newAjv(description, false);
    this.#coercing = newAjv(description, true);
  }

  #compile(key: string, schema: unknown, coerce = false): ValidateFunction {
    let validate = this.#compiled.get(key);
    if (validate === undefined) {
      validate = (coerce ? this.#coercing : this.#strict).compile(toJsonSchema(schema, BASE) as JsonSchema);
      this.#compiled.set(key, validate);
    }
    return validate;
  }

  request(operation: OpenApiOperation, facts: RequestFacts): string[] {
    const problems: string[] = [];
    const id = operation.operationId;
    for (const place of ['path', 'query', 'header'] as const) {
      const declared = operation.parameters.filter((parameter) => parameter.in === place);
      const name = (parameter: { readonly name: string }) => (place === 'header' ? parameter.name.toLowerCase() : parameter.name);
      const schema = {
        type: 'object',
        properties: Object.fromEntries(declared.map((parameter) => [name(parameter), parameter.schema ?? {}])),
        required: declared.filter((parameter) => parameter.in === 'path' || parameter.required === true).map(name),
        additionalProperties: place !== 'query',
      };
      const source = place === 'path' ? facts.path : place === 'query' ? facts.query : facts.headers;
      // Headers: only the declared ones are the operation's business.
      const data: Record<string, unknown> = {};
      for (const [key, value] of Object.entries(source)) if (value !== undefined && (place !== 'header' || declared.some((p) => name(p) === key))) data[key] = Array.isArray(value) ? [...value] : value;
      const validate = this.#compile(`${id} ${place}`, schema, true);
      if (!validate(data)) problems.push(`${id}: ${place} parameters: ${describeErrors(place, validate.errors)}`);
    }
    problems.push(...this.#requestBody(operation, facts));
    const accepted = String(facts.headers['accept'] ?? '')
      .split(',')
      .map((part) => mediaType(part))
      .filter((type): type is string => type !== undefined && !DEFAULT_MEDIA.has(type));
    const offered = new Set(Object.entries(operation.responses).flatMap(([status, response]) => (status.startsWith('2') ? Object.keys(response.content ?? {}) : [])));
    for (const type of accepted) if (!offered.has(type)) problems.push(`${id}: asks for ${type}, which the operation does not document (it has: ${[...offered].join(', ') || 'no body'})`);
    return problems;
  }

  #requestBody(operation: OpenApiOperation, facts: RequestFacts): string[] {
    const id = operation.operationId;
    const spec = operation.requestBody;
    if (spec === undefined) return facts.body.length > 0 ? [`${id}: the request has a body; the operation takes none`] : [];
    if (facts.body.length === 0) return spec.required === true ? [`${id}: the request body is required`] : [];
    const type = mediaType(String(facts.headers['content-type'] ?? ''));
    const media = type === undefined ? undefined : spec.content[type];
    if (type === undefined || media === undefined) return [`${id}: request content type ${type ?? '(none)'} is not one of ${Object.keys(spec.content).join(', ')}`];
    if (!isJson(type) || media.schema === undefined) return [];
    let body: unknown;
    try {
      body = JSON.parse(facts.body.toString('utf8'));
    } catch (error) {
      return [`${id}: the request body is not JSON (${(error as Error).message})`];
    }
    const validate = this.#compile(`${id} request ${type}`, media.schema);
    return validate(body) ? [] : [`${id}: request body: ${describeErrors('body', validate.errors)}`];
  }

  response(operation: OpenApiOperation, facts: ResponseFacts): string[] {
    const id = operation.operationId;
    const status = String(facts.status);
    const spec: OpenApiResponse | undefined = operation.responses[status] ?? operation.responses[`${status[0] ?? ''}XX`] ?? operation.responses['default'];
    if (spec === undefined) return [`${id}: status ${status} is not documented (documented: ${Object.keys(operation.responses).join(', ')})`];
    const problems: string[] = [];
    for (const [header, definition] of Object.entries(spec.headers ?? {})) {
      const value = facts.headers[header];
      if (value === undefined) {
        if (definition.required === true || (header === 'location' && facts.status >= 300 && facts.status < 400)) problems.push(`${id}: response ${status} lacks the ${header} header`);
        continue;
      }
      if (definition.schema === undefined) continue;
      const validate = this.#compile(`${id} ${status} header ${header}`, definition.schema, true);
      if (!validate(value)) problems.push(`${id}: response ${status} header ${header}: ${describeErrors(header, validate.errors)}`);
    }
    const content = spec.content;
    if (content === undefined) {
      if (facts.body.length > 0) problems.push(`${id}: response ${status} has a body; the description documents none`);
      return problems;
    }
    const type = mediaType(facts.headers['content-type']);
    const media = type === undefined ? undefined : content[type];
    if (type === undefined || media === undefined) return [...problems, `${id}: response ${status} content type ${type ?? '(none)'} is not one of ${Object.keys(content).join(', ')}`];
    if (media.schema === undefined) return problems;
    let body: unknown = facts.body.toString('utf8');
    if (isJson(type)) {
      try {
        body = JSON.parse(body as string);
      } catch (error) {
        return [...problems, `${id}: response ${status} body is not JSON (${(error as Error).message})`];
      }
    }
    const validate = this.#compile(`${id} ${status} ${type}`, media.schema);
    if (!validate(body)) problems.push(`${id}: response ${status} body: ${describeErrors('body', validate.errors)}`);
    return problems;
  }
}
