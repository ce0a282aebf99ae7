import type { FastifyError, FastifyInstance } from 'fastify';
import { isSvcError } from '../../../core/kernel/index.js';
import { VssError } from './vss-error.js';
import { sendBearerChallenge, sendVssError } from './vss-reply.js';

/**
 * Errors on a VSS route group become wrapped exceptions the runner can read: typed ones keep their
 * `typeKey`, the rest are `VssServiceException`s carrying our message (the runner prints it), and
 * a 401 always carries the Bearer challenge. Install in the group's own (encapsulated) context.
 */
export function installVssErrorHandler(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError, request, reply) => {
    if (error instanceof VssError) {
      if (error.status === 401) return sendBearerChallenge(reply, error.message);
      return sendVssError(reply, error.status, error.typeKey, error.message, error.errorCode);
    }
    if (isSvcError(error)) {
      if (error.status >= 500) request.log.error({ err: error }, error.message);
      if (error.status === 401) return sendBearerChallenge(reply, error.message);
      return sendVssError(reply, error.status, 'VssServiceException', error.message);
    }
    if (error.validation) {
      const where = error.validationContext ?? 'request';
      return sendVssError(reply, 400, 'VssServiceException', `${where} ${error.message.replace(/^(body|querystring|params|headers)\s*/, '')}`.trim());
    }
    if (typeof error.statusCode === 'number' && error.statusCode >= 400 && error.statusCode < 500) {
      return sendVssError(reply, error.statusCode, 'VssServiceException', error.message);
    }
    request.log.error({ err: error }, 'unhandled error on a runner route');
    return sendVssError(reply, 500, 'VssServiceException', 'internal error; the server log has the details');
  });
}
