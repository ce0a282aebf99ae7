import type { FastifyInstance, RouteOptions } from 'fastify';

/**
 * The routes a server carries, as registered (method, URL, body limit and schema, the credential
 * they accept), so tests and probes walk every route instead of a list kept by hand: a route
 * added tomorrow is in the table without anyone remembering it.
 */
export interface RouteEntry {
  readonly method: string;
  /** The full URL pattern, prefix included (`/api/v1/runs/:runId`). */
  readonly url: string;
  /** The largest body Fastify reads for it (its own limit or the server's). */
  readonly bodyLimit: number;
  /** The body's JSON Schema as the route declared it, if any. */
  readonly bodySchema: unknown;
  /** What a group declared with `acceptsCredential` (e.g. `job-token`), if anything. */
  readonly credential: string | undefined;
}

/** The route config key `acceptsCredential` writes. */
const CREDENTIAL_KEY = 'svcCredential';

/**
 * Declares, for every route registered in `app` (an encapsulated context) from now on, which
 * credential it accepts; the route table reports it. Call it where the context installs the hook
 * that checks that credential, so the two cannot drift apart.
 */
export function acceptsCredential(app: FastifyInstance, credential: string): void {
  app.addHook('onRoute', (route: RouteOptions) => {
    route.config = { ...(route.config as Record<string, unknown> | undefined), [CREDENTIAL_KEY]: credential };
  });
}

const tables = new WeakMap<object, () => readonly RouteEntry[]>();

/**
 * Records every route registered on `app` and its children from now on. The route options are
 * read when the table is asked for, after the children's `onRoute` hooks (which run after the
 * root's) have added their declarations.
 */
export function recordRoutes(app: FastifyInstance, defaultBodyLimit: number): void {
  const seen: RouteOptions[] = [];
  app.addHook('onRoute', (route: RouteOptions) => void seen.push(route));
  tables.set(app, () =>
    seen.flatMap((route) => {
      const methods = Array.isArray(route.method) ? route.method : [route.method];
      const credential = (route.config as Record<string, unknown> | undefined)?.[CREDENTIAL_KEY];
      return methods.map((method) => ({
        method: String(method),
        url: route.url,
        bodyLimit: route.bodyLimit ?? defaultBodyLimit,
        bodySchema: route.schema?.body,
        credential: typeof credential === 'string' ? credential : undefined,
      }));
    }),
  );
}

/** The routes of a server made by `createHttpServer`, as registered. */
export function routeTable(app: FastifyInstance): readonly RouteEntry[] {
  return tables.get(app)?.() ?? [];
}
