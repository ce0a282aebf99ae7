import type { FastifyInstance } from 'fastify';
import type { ListenAddress } from './config/env-config.js';
import type { SystemAuth } from './core-services.js';
import { registerRouteGroup } from './host-routes.js';
import type { HttpLimits } from './http/http-limits.js';
import { routeTable, type RouteEntry } from './http/route-table.js';
import { createHttpServer } from './http/server.js';
import { prepareSocketPath, removeSocketFile, secureSocketFile, socketListenError, type SocketFileIdentity } from './http/socket-file.js';
import type { Logger } from './logger.js';
import type { RouteGroup, RouteSurface } from './plugin.js';

export interface ListenersOptions {
  readonly logger: Logger;
  readonly listen: ListenAddress;
  /** SVC_RUNNER_SOCKET, when set. */
  readonly runnerSocket: string | undefined;
  readonly systemAuth: SystemAuth;
  /** Timeouts and the per-address connection cap (SVC_HTTP_*, SVC_MAX_CONNECTIONS_PER_IP). */
  readonly limits?: HttpLimits;
}

/** Where the host listens, and how it stops listening. */
export interface Listeners {
  /** SVC_LISTEN: every route group served on `tcp` (all of them, unless a group says otherwise). */
  readonly tcp: FastifyInstance;
  /** SVC_RUNNER_SOCKET: only the route groups served on `runner-socket`. */
  readonly runnerSocket: FastifyInstance | undefined;
  /** The routes TCP carries (the runner socket carries a subset of the same groups). */
  routes(): readonly RouteEntry[];
  addRouteGroup(group: RouteGroup): Promise<void>;
  ready(): Promise<void>;
  /** Checks the socket path before anything starts: a bad path fails the start naming the knob. */
  prepare(): Promise<void>;
  /** Listens on TCP, then on the socket; answers the TCP address. */
  listen(): Promise<ListenAddress>;
  /**
   * Stops accepting on both, finishes their in-flight requests, removes the socket file (libuv
   * unlinks it already when the listener closes; this covers a platform that does not).
   */
  close(): Promise<void>;
}

/**
 * The HTTP listeners: TCP always, and the runner Unix socket when configured.
 *
 * The socket gets its own Fastify instance carrying only the groups marked for it, rather than one
 * instance with a per-listener filter: a route that is not registered on the socket's instance
 * cannot be reached through it, whatever hooks a future group adds or forgets (a filter is one
 * hook every route depends on), and Fastify's drain (503 while closing, closing idle keep-alive
 * connections, waiting for in-flight requests) then covers both servers without our own
 * bookkeeping. The price is that a group served on both is registered twice, once per instance,
 * which the plugin contract states (`RouteGroup.register`).
 */
export function createListeners(options: ListenersOptions): Listeners {
  const logger = options.logger;
  const limits = options.limits === undefined ? {} : { limits: options.limits };
  const tcp = createHttpServer({ logger, ...limits });
  const socketPath = options.runnerSocket;
  const runnerSocket = socketPath === undefined ? undefined : createHttpServer({ logger: logger.child({ listener: 'runner-socket' }), runnerSocket: true, ...limits });
  let socketFile: SocketFileIdentity | undefined;

  const drain = async (app: FastifyInstance) => {
    // close() waits for in-flight requests; a keep-alive socket whose request ends after that
    // would hold it until the keep-alive timeout, so idle sockets are closed as they appear.
    const sweepIdle = setInterval(() => app.server.closeIdleConnections(), 100);
    try {
      await app.close();
    } finally {
      clearInterval(sweepIdle);
    }
  };

  return {
    tcp,
    runnerSocket,
    routes: () => routeTable(tcp),
    async addRouteGroup(group) {
      const surfaces: readonly RouteSurface[] = group.surfaces ?? ['tcp'];
      if (surfaces.includes('tcp')) await registerRouteGroup(tcp, group, options.systemAuth);
      if (runnerSocket !== undefined && surfaces.includes('runner-socket')) await registerRouteGroup(runnerSocket, group, options.systemAuth);
    },
    async ready() {
      await tcp.ready();
      await runnerSocket?.ready();
    },
    async prepare() {
      if (socketPath !== undefined) await prepareSocketPath(socketPath);
    },
    async listen() {
      await tcp.listen({ host: options.listen.host, port: options.listen.port });
      if (runnerSocket !== undefined && socketPath !== undefined) {
        try {
          await runnerSocket.listen({ path: socketPath });
        } catch (error) {
          throw socketListenError(socketPath, error);
        }
        socketFile = await secureSocketFile(socketPath);
      }
      const address = tcp.server.address();
      return { host: options.listen.host, port: typeof address === 'object' && address !== null ? address.port : options.listen.port };
    },
    async close() {
      await Promise.all([drain(tcp), runnerSocket === undefined ? undefined : drain(runnerSocket)]);
      if (socketFile !== undefined) {
        try {
          await removeSocketFile(socketFile);
        } catch (error) {
          logger.warn({ err: error, path: socketFile.path }, 'could not remove the runner socket file');
        }
      }
    },
  };
}
