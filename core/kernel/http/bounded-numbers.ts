import type { FastifyInstance, RouteOptions } from 'fastify';

/**
 * Every number a route's schema takes is a safe integer range at most. A number past it (say
 * `change_order: 1e308`) cannot be kept exactly (JavaScript) nor stored (an int8 column), and
 * without a bound it reached the store as a 500; with one it is a 400 naming the field. A schema
 * that sets its own `minimum`/`maximum` keeps them.
 */
const MAX = Number.MAX_SAFE_INTEGER;
const SKIPPED_KEYWORDS = new Set(['enum', 'const', 'default', 'examples']);

type Schema = Record<string, unknown>;

function isNumeric(type: unknown): boolean {
  const types = Array.isArray(type) ? type : [type];
  return types.includes('integer') || types.includes('number');
}

function bound(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(bound);
  if (typeof schema !== 'object' || schema === null) return schema;
  const out: Schema = {};
  for (const [key, value] of Object.entries(schema as Schema)) out[key] = SKIPPED_KEYWORDS.has(key) ? value : bound(value);
  if (isNumeric(out['type'])) {
    if (out['maximum'] === undefined && out['exclusiveMaximum'] === undefined) out['maximum'] = MAX;
    if (out['minimum'] === undefined && out['exclusiveMinimum'] === undefined) out['minimum'] = -MAX;
  }
  return out;
}

/** Bounds the numbers of every route registered on `app` from now on (a copy: shared schemas stay as written). */
export function boundNumbersInSchemas(app: FastifyInstance): void {
  app.addHook('onRoute', (route: RouteOptions) => {
    const schema = route.schema;
    if (schema === undefined) return;
    route.schema = {
      ...schema,
      ...(schema.body === undefined ? {} : { body: bound(schema.body) }),
      ...(schema.querystring === undefined ? {} : { querystring: bound(schema.querystring) }),
      ...(schema.params === undefined ? {} : { params: bound(schema.params) }),
      ...(schema.headers === undefined ? {} : { headers: bound(schema.headers) }),
    };
  });
}
