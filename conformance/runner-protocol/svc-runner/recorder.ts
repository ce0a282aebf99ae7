/**
 * Records every request a server answers: method, the route template Fastify matched, status and
 * the top-level keys of a JSON body. The kernel's app is ready once `createHost` returns, so the
 * hooks go in each plugin's route groups (the catalog is wrapped: every group gets an `onRequest`
 * and a `preHandler` hook on its own encapsulated context), and the raw Node server's `request`
 * event keeps the order of arrival and catches requests no route matched.
 */
import type { IncomingMessage, Server } from 'node:http';
import type { Catalog, PluginDefinition, PluginEnvironment, RouteGroup } from '../../../core/kernel/index.js';

export interface RecordedCall {
  readonly method: string;
  /** The route template (`request.routeOptions.url`); undefined when no route matched. */
  route: string | undefined;
  readonly path: string;
  /** Undefined while the answer is not finished (a held poll cut short). */
  status: number | undefined;
  /** Top-level keys of a JSON object body. */
  bodyKeys: readonly string[] | undefined;
  /** Calls with the system credential are the operator's (submitting, checking, cancelling), not the runner's. */
  readonly operator: boolean;
  /** The bearer is a job token (its subject `job:…`): a Worker's call, or the listener's run-service lock renewal. */
  readonly jobToken: boolean;
}

/** True for a bearer JWT whose (unverified) subject names a job: only the Worker and `renewjob` hold one. */
function isJobToken(authorization: string | undefined): boolean {
  const payload = /^Bearer [^.\s]+\.([^.\s]+)\./i.exec(authorization ?? '')?.[1];
  if (payload === undefined) return false;
  try {
    const claims = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as { sub?: unknown };
    return typeof claims.sub === 'string' && claims.sub.startsWith('job:');
  } catch {
    return false;
  }
}

export class Recorder {
  #calls: RecordedCall[] = [];
  readonly #pending = new WeakMap<IncomingMessage, RecordedCall>();

  constructor(private readonly systemToken: string) {}

  /** What is recorded so far (not taken). */
  peek(): readonly RecordedCall[] {
    return this.#calls;
  }

  /** Everything recorded since the last `take`, in order of arrival. */
  take(): RecordedCall[] {
    const calls = this.#calls;
    this.#calls = [];
    return calls;
  }

  tap(server: Server): void {
    // Before Fastify's own listener, whose hooks start synchronously.
    server.prependListener('request', (req: IncomingMessage, res) => {
      const call: RecordedCall = {
        method: req.method ?? 'GET',
        route: undefined,
        path: (req.url ?? '/').split('?')[0] ?? '/',
        status: undefined,
        bodyKeys: undefined,
        operator: req.headers.authorization === `Bearer ${this.systemToken}`,
        jobToken: isJobToken(req.headers.authorization),
      };
      this.#calls.push(call);
      this.#pending.set(req, call);
      res.on('finish', () => void (call.status = res.statusCode));
    });
  }

  /** The catalog with every plugin's route groups recorded. */
  wrapCatalog(catalog: Catalog): Catalog {
    const plugins = Object.fromEntries(
      Object.entries(catalog.plugins).map(([id, importer]) => [
        id,
        async () => {
          const module = await importer();
          const plugin = module['plugin'] as PluginDefinition | undefined;
          return plugin === undefined ? module : { ...module, plugin: this.#wrapPlugin(plugin) };
        },
      ]),
    );
    return { ...catalog, plugins };
  }

  #wrapPlugin(plugin: PluginDefinition): PluginDefinition {
    return {
      ...plugin,
      init: (deps, env) => plugin.init(deps, { ...env, addRoutes: (group: RouteGroup) => env.addRoutes(this.#wrapGroup(group)) } satisfies PluginEnvironment),
    };
  }

  #wrapGroup(group: RouteGroup): RouteGroup {
    return {
      ...group,
      register: async (app) => {
        app.addHook('onRequest', async (request) => {
          const call = this.#pending.get(request.raw);
          if (call) call.route = request.routeOptions.url;
        });
        app.addHook('preHandler', async (request) => {
          const call = this.#pending.get(request.raw);
          const body: unknown = request.body;
          if (call && typeof body === 'object' && body !== null && !Array.isArray(body) && !Buffer.isBuffer(body)) call.bodyKeys = Object.keys(body);
        });
        await group.register(app);
      },
    };
  }
}
