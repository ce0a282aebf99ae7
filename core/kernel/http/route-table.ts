import type { FastifyInstance, RouteOptions } from 'fastify';

/** One registered route and the largest body Fastify reads for it (its own limit or the server's). */
export interface RouteEntry {
  readonly method: string;
  readonly url: string;
  readonly bodyLimit: number;
  /** The body's JSON Schema as the route declared it, if any. */
  readonly bodySchema: unknown;
}

const tables = new WeakMap<object, RouteEntry[]>();

/** Records every route registered on `app` (and its children) from now on. */
export function recordRoutes(app: FastifyInstance, defaultBodyLimit: number): void {
  const entries: RouteEntry[] = [];
  tables.set(app, entries);
  app.addHook('onRoute', (route: RouteOptions) => {
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    for (const method of methods) entries.push({ method: String(method), url: route.url, bodyLimit: route.bodyLimit ?? defaultBodyLimit, bodySchema: route.schema?.body });
  });
}

/** The routes of a server made by `createHttpServer`, as registered. */
export function routeTable(app: FastifyInstance): readonly RouteEntry[] {
  return tables.get(app) ?? [];
}
