import Fastify, { LogController, type FastifyInstance } from 'fastify';
import type { Logger } from '../logger.js';
import { boundNumbersInSchemas } from './bounded-numbers.js';
import { installErrorHandling } from './error-handler.js';
import { capConnectionsPerIp, connectionsCheckingInterval, DEFAULT_HTTP_LIMITS, type HttpLimits } from './http-limits.js';
import { recordRoutes } from './route-table.js';
import { runnerSocketServerFactory } from './runner-socket-server.js';

/**
 * Largest body a route reads unless it says otherwise (`bodyLimit` in its options): requests and
 * reports are kilobytes; the few routes that take more name their limit (test/kernel/http-limits.test.ts lists them).
 */
export const DEFAULT_BODY_LIMIT = 64 * 1024;

export interface HttpServerOptions {
  readonly logger: Logger;
  /** Largest JSON body accepted by a route without its own limit (bytes). */
  readonly bodyLimit?: number;
  /** Timeouts and the per-address connection cap; default DEFAULT_HTTP_LIMITS. */
  readonly limits?: HttpLimits;
  /** The server for the runner Unix socket: requests are tagged, the socket file is created 0600. */
  readonly runnerSocket?: boolean;
}

/** The HTTP server every route group is registered on; requests are logged at debug level. */
export function createHttpServer(options: HttpServerOptions): FastifyInstance {
  const limits = options.limits ?? DEFAULT_HTTP_LIMITS;
  const bodyLimit = options.bodyLimit ?? DEFAULT_BODY_LIMIT;
  const app = Fastify({
    ...(options.runnerSocket === true ? { serverFactory: runnerSocketServerFactory } : {}),
    loggerInstance: options.logger,
    logController: new LogController({ disableRequestLogging: true }),
    bodyLimit,
    http: {
      headersTimeout: limits.headersTimeoutMs,
      requestTimeout: limits.requestTimeoutMs,
      connectionsCheckingInterval: connectionsCheckingInterval(limits),
    },
    requestTimeout: limits.requestTimeoutMs,
    connectionTimeout: limits.idleTimeoutMs,
    keepAliveTimeout: limits.keepAliveTimeoutMs,
    forceCloseConnections: 'idle',
    return503OnClosing: true,
    ajv: { customOptions: { allErrors: false, removeAdditional: false, coerceTypes: 'array' } },
  }) as unknown as FastifyInstance;
  recordRoutes(app, bodyLimit);
  boundNumbersInSchemas(app);
  capConnectionsPerIp(app.server, limits, options.logger);
  app.addHook('onResponse', async (request, reply) => {
    request.log.debug({ method: request.method, url: request.url.split('?')[0], status: reply.statusCode, ms: Math.round(reply.elapsedTime) }, 'request');
  });
  installErrorHandling(app);
  return app;
}
