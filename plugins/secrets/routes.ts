import type { FastifyInstance } from 'fastify';
import { InputError } from '../../core/kernel/index.js';
import { tableHeader, type SecretSource } from './fixed-sources.js';
import { checkName, checkScope, checkValue, MAX_VALUE_BYTES, type Scope, type ValueKind } from './scope.js';
import type { ListedValue, SecretStore } from './secret-store.js';

/**
 * A JSON body of one value at the size limit, each character escaped at worst (`\u0000`: six
 * bytes), plus room for the wrapper.
 */
export const VALUE_BODY_LIMIT = MAX_VALUE_BYTES * 6 + 1024;

/** The path segment of each kind: `/api/v1/secrets`, `/api/v1/variables`. */
export const KIND_PATHS: Readonly<Record<ValueKind, string>> = { secret: 'secrets', var: 'variables' };


export interface ListedValueView {
  readonly name: string;
  /** `owner/repo`, or null for a global value. */
  readonly repository: string | null;
  readonly environment: string | null;
  readonly updated_at: string;
  /** Variables only: a secret's value is never returned. */
  readonly value?: string;
  /** `credential` (service-manager credential), `store` (`svc secret set`) or `config` (the config file's sealed maps). */
  readonly source: SecretSource;
  /** False when a source of higher precedence holds the same scope and name. */
  readonly in_effect: boolean;
}

/** `POST /secrets/{name}/seal`: what to paste into the config file. */
export interface SealedView {
  readonly name: string;
  readonly repository: string | null;
  readonly environment: string | null;
  /** The TOML table header, e.g. `[secrets.repository."o/r"]`. */
  readonly table: string;
  readonly sealed: string;
  /** `NAME = "svc-sealed-v1:..."`. */
  readonly line: string;
}

export interface ValueListView {
  readonly secrets?: readonly ListedValueView[];
  readonly variables?: readonly ListedValueView[];
}

function toView(entry: ListedValue): ListedValueView {
  return {
    name: entry.name,
    repository: entry.scope.repository ?? null,
    environment: entry.scope.environment ?? null,
    updated_at: new Date(entry.updatedAt).toISOString(),
    source: entry.source,
    in_effect: entry.inEffect,
    ...(entry.value === undefined ? {} : { value: entry.value }),
  };
}

function queryText(query: unknown, field: 'repo' | 'env'): string | undefined {
  const value = (query as Record<string, unknown> | undefined)?.[field];
  if (value === undefined) return undefined;
  if (typeof value !== 'string' || value === '') throw new InputError(`the query parameter '${field}' must be given once, not empty`, { code: 'invalid_scope' });
  return value;
}

function bodyValue(body: unknown): string {
  const value = typeof body === 'object' && body !== null ? (body as Record<string, unknown>)['value'] : undefined;
  if (typeof value !== 'string') throw new InputError('the body must be a JSON object {"value": "<text>"}', { code: 'invalid_body' });
  return value;
}

/**
 * `GET /secrets[?repo=o/r]`, `PUT /secrets/{name}[?repo=o/r[&env=E]]` with `{"value": ...}`,
 * `DELETE /secrets/{name}[?repo&env]`; the same under `/variables`. `POST /secrets/{name}/seal[?repo&env]`
 * with `{"value": ...}` answers the config file's sealed form of that entry (SealedView). The group sits under `/api/v1`
 * behind the system bearer, checked before any body is read.
 */
export function registerValueRoutes(app: FastifyInstance, deps: { readonly store: SecretStore; readonly seal: (scope: Scope, name: string, value: string) => Promise<string> }): void {
  const { store, seal } = deps;

  // Only the server holds the secrets key, so it seals what `svc secret seal` prints; nothing is stored.
  app.post<{ Params: { name: string } }>('/secrets/:name/seal', { bodyLimit: VALUE_BODY_LIMIT }, async (request): Promise<SealedView> => {
    const name = checkName('secret', request.params.name);
    const scope = checkScope(queryText(request.query, 'repo'), queryText(request.query, 'env'));
    const sealed = await seal(scope, name, checkValue('secret', name, bodyValue(request.body)));
    return {
      name,
      repository: scope.repository ?? null,
      environment: scope.environment ?? null,
      table: tableHeader(scope),
      sealed,
      line: `${name} = ${JSON.stringify(sealed)}`,
    };
  });

  for (const kind of ['secret', 'var'] as const) {
    const path = KIND_PATHS[kind];
    const listKey = kind === 'secret' ? 'secrets' : 'variables';

    app.get(`/${path}`, async (request) => {
      const repository = queryText(request.query, 'repo');
      checkScope(repository, undefined);
      const entries = await store.list(kind, repository === undefined ? {} : { repository });
      return { [listKey]: entries.map(toView) };
    });

    app.put<{ Params: { name: string } }>(`/${path}/:name`, { bodyLimit: VALUE_BODY_LIMIT }, async (request, reply) => {
      const name = checkName(kind, request.params.name);
      const scope = checkScope(queryText(request.query, 'repo'), queryText(request.query, 'env'));
      await store.set(kind, scope, name, bodyValue(request.body));
      return reply.code(204).send();
    });

    app.delete<{ Params: { name: string } }>(`/${path}/:name`, async (request, reply) => {
      const name = checkName(kind, request.params.name);
      const scope = checkScope(queryText(request.query, 'repo'), queryText(request.query, 'env'));
      await store.remove(kind, scope, name);
      return reply.code(204).send();
    });
  }
}
