import { createServer, type IncomingMessage, type Server, type ServerOptions, type ServerResponse } from 'node:http';
import { isMainThread } from 'node:worker_threads';
import type { FastifyRequest } from 'fastify';

/** Requests that arrived on the runner socket (the IncomingMessage objects of its server only). */
const socketRequests = new WeakSet<IncomingMessage>();

/**
 * True when the request came in over the runner Unix socket (`SVC_RUNNER_SOCKET`). Runner routes
 * ask this where the socket's rules differ: registration is always strict there, and URLs handed
 * to the runner cannot be built from the socket's Host header.
 */
export function arrivedOnRunnerSocket(request: FastifyRequest): boolean {
  return socketRequests.has(request.raw);
}

/** What Fastify hands a `serverFactory` (its processed options); only the server timings are read. */
interface FactoryOptions {
  readonly http?: ServerOptions;
  readonly keepAliveTimeout?: number;
  readonly requestTimeout?: number;
  readonly connectionTimeout?: number;
  readonly maxRequestsPerSocket?: number;
}

/** Owner read/write only: the socket file is created with this umask, so it is never wider than 0600. */
const SOCKET_UMASK = 0o177;

/**
 * Fastify `serverFactory` for the runner socket: the server Fastify would make (same timings), which
 * tags each request as arriving on the socket and binds its path under a umask of 0177. Node binds
 * a pipe synchronously inside `listen()` (outside a cluster worker), so the umask is restored
 * before any other code runs and the file never exists with wider permissions. A worker thread
 * cannot change the umask; the host then tightens the mode right after listening instead.
 */
export function runnerSocketServerFactory(handler: (request: IncomingMessage, response: ServerResponse) => void, options: FactoryOptions): Server {
  const server = createServer(options.http ?? {}, (request, response) => {
    socketRequests.add(request);
    handler(request, response);
  });
  if (options.keepAliveTimeout !== undefined) server.keepAliveTimeout = options.keepAliveTimeout;
  if (options.requestTimeout !== undefined) server.requestTimeout = options.requestTimeout;
  if (options.connectionTimeout !== undefined) server.setTimeout(options.connectionTimeout);
  if (options.maxRequestsPerSocket !== undefined && options.maxRequestsPerSocket > 0) server.maxRequestsPerSocket = options.maxRequestsPerSocket;
  if (isMainThread) {
    const listen = server.listen;
    server.listen = function listenPrivately(this: Server, ...args: unknown[]): Server {
      const previous = process.umask(SOCKET_UMASK);
      try {
        return Reflect.apply(listen, this, args) as Server;
      } finally {
        process.umask(previous);
      }
    } as Server['listen'];
  }
  return server;
}
