/**
 * GitHub's published OpenAPI description of its REST API (`@octokit/openapi`, exact-pinned in
 * package.json): operations looked up by `operationId`, with the `$ref`s of their parameters,
 * request bodies, responses and headers followed. Read straight from the package's JSON file (its
 * index.js would load every description, ~400 MB); parsed once per process and per description.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

export type JsonSchema = Readonly<Record<string, unknown>>;

export interface OpenApiParameter {
  readonly name: string;
  readonly in: 'path' | 'query' | 'header' | 'cookie';
  readonly required?: boolean;
  readonly schema?: JsonSchema;
  /** GitHub's mark on path parameters that may hold `/` (`ref` of `commits/{ref}`, `tarball/{ref}`). */
  readonly 'x-multi-segment'?: boolean;
}

export interface OpenApiMediaType {
  readonly schema?: JsonSchema;
}

export interface OpenApiHeader {
  readonly required?: boolean;
  readonly schema?: JsonSchema;
}

export interface OpenApiResponse {
  readonly description?: string;
  readonly headers?: Readonly<Record<string, OpenApiHeader>>;
  readonly content?: Readonly<Record<string, OpenApiMediaType>>;
}

export interface OpenApiOperation {
  readonly operationId: string;
  /** Lower case, as in the description (`get`, `post`, ...). */
  readonly method: string;
  /** The path template, e.g. `/repos/{owner}/{repo}/commits/{ref}`. */
  readonly path: string;
  readonly parameters: readonly OpenApiParameter[];
  readonly requestBody: { readonly required?: boolean; readonly content: Readonly<Record<string, OpenApiMediaType>> } | undefined;
  /** By status (`200`, `4XX`, `default`), references followed. */
  readonly responses: Readonly<Record<string, OpenApiResponse>>;
}

export interface OpenApiDescription {
  /** The file's name in `@octokit/openapi` (`api.github.com`, `ghes-3.19`, ...). */
  readonly name: string;
  readonly components: Readonly<Record<string, unknown>>;
  /** Throws naming the operation when the description has none by that id. */
  operation(operationId: string): OpenApiOperation;
}

const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'] as const;
const loaded = new Map<string, OpenApiDescription>();

interface RawDocument {
  readonly paths: Readonly<Record<string, Readonly<Record<string, unknown>>>>;
  readonly components: Readonly<Record<string, unknown>>;
}

/** Follows `#/...` references within the document until an object that is none. */
function deref<T>(document: RawDocument, value: unknown): T {
  let current = value;
  for (let hops = 0; typeof current === 'object' && current !== null && typeof (current as { $ref?: unknown }).$ref === 'string'; hops += 1) {
    const ref = (current as { $ref: string }).$ref;
    if (!ref.startsWith('#/') || hops > 16) throw new Error(`cannot follow the OpenAPI reference '${ref}'`);
    current = ref
      .slice(2)
      .split('/')
      .map((part) => part.replace(/~1/g, '/').replace(/~0/g, '~'))
      .reduce<unknown>((node, part) => (node as Record<string, unknown> | undefined)?.[part], document);
    if (current === undefined) throw new Error(`the OpenAPI reference '${ref}' points nowhere`);
  }
  return current as T;
}

export function loadDescription(name = 'api.github.com'): OpenApiDescription {
  const cached = loaded.get(name);
  if (cached !== undefined) return cached;
  const require = createRequire(import.meta.url);
  const file = join(dirname(require.resolve('@octokit/openapi/package.json')), 'generated', `${name}.json`);
  const document = JSON.parse(readFileSync(file, 'utf8')) as RawDocument;
  const byId = new Map<string, OpenApiOperation>();
  for (const [path, item] of Object.entries(document.paths)) {
    const shared = (item['parameters'] as unknown[] | undefined) ?? [];
    for (const method of METHODS) {
      const raw = item[method] as Record<string, unknown> | undefined;
      if (raw === undefined || typeof raw['operationId'] !== 'string') continue;
      const responses: Record<string, OpenApiResponse> = {};
      for (const [status, response] of Object.entries((raw['responses'] as Record<string, unknown> | undefined) ?? {})) {
        const resolved = deref<OpenApiResponse>(document, response);
        const headers: Record<string, OpenApiHeader> = {};
        for (const [header, value] of Object.entries(resolved.headers ?? {})) headers[header.toLowerCase()] = deref<OpenApiHeader>(document, value);
        responses[status] = { ...resolved, headers };
      }
      const body = raw['requestBody'] === undefined ? undefined : deref<NonNullable<OpenApiOperation['requestBody']>>(document, raw['requestBody']);
      byId.set(raw['operationId'], {
        operationId: raw['operationId'],
        method,
        path,
        parameters: [...shared, ...((raw['parameters'] as unknown[] | undefined) ?? [])].map((parameter) => deref<OpenApiParameter>(document, parameter)),
        requestBody: body,
        responses,
      });
    }
  }
  const description: OpenApiDescription = {
    name,
    components: document.components,
    operation(operationId) {
      const operation = byId.get(operationId);
      if (operation === undefined) throw new Error(`GitHub's OpenAPI description (${name}) has no operation '${operationId}'`);
      return operation;
    },
  };
  loaded.set(name, description);
  return description;
}
