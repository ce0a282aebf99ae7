import Fastify, { LogController, type FastifyInstance } from 'fastify';
import type { Logger } from '../logger.js';
import { installErrorHandling } from './error-handler.js';
import { runnerSocketServerFactory } from './runner-socket-server.js';

export interface HttpServerOptions {
  readonly logger: Logger;
  /** Largest JSON body accepted (bytes). */
  readonly bodyLimit?: number;
  /** The server for the runner Unix socket: requests are tagged, the socket file is created 0600. */
  readonly runnerSocket?: boolean;
}

/** The HTTP server every route group is registered on; requests are logged at debug level. */
export function createHttpServer(options: HttpServerOptions): FastifyInstance {
  const app = Fastify({
    ...(options.runnerSocket === true ? { serverFactory: runnerSocketServerFactory } : {}),
    loggerInstance: options.logger,
    logController: new LogController({ disableRequestLogging: true }),
    bodyLimit: options.bodyLimit ?? 10 * 1024 * 1024,
    forceCloseConnections: 'idle',
    return503OnClosing: true,
    ajv: { customOptions: { allErrors: false, removeAdditional: false, coerceTypes: 'array' } },
  }) as unknown as FastifyInstance;
  app.addHook('onResponse', async (request, reply) => {
    request.log.debug({ method: request.method, url: request.url.split('?')[0], status: reply.statusCode, ms: Math.round(reply.elapsedTime) }, 'request');
  });
  installErrorHandling(app);
  return app;
}
