import type { FastifyError, FastifyInstance } from 'fastify';
import { isSvcError } from '../../core/kernel/index.js';

/** The challenge git answers with its credential helpers (and reports as an authentication failure). */
export const BASIC_CHALLENGE = 'Basic realm="svc"';

/**
 * Errors of the git routes as git shows them: git prints a `text/plain` body of a failed request
 * as `remote: <line>`, and a 401 with a `Basic` challenge makes it ask its credential helpers (or
 * fail with an authentication error). Same statuses and codes as the kernel's JSON mapping; the
 * code is in `X-Svc-Error-Code`.
 */
export function installGitErrorHandler(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError, request, reply) => {
    if (isSvcError(error)) {
      if (error.status >= 500 && error.status !== 501) request.log.error({ err: error }, error.message);
      if (error.status === 401) void reply.header('www-authenticate', BASIC_CHALLENGE);
      const hint = error.details?.['hint'];
      const text = typeof hint === 'string' ? `${error.message}\n${hint}\n` : `${error.message}\n`;
      return reply.status(error.status).header('x-svc-error-code', error.code).type('text/plain; charset=utf-8').send(text);
    }
    const status = typeof error.statusCode === 'number' && error.statusCode >= 400 && error.statusCode < 500 ? error.statusCode : 500;
    if (status === 500) request.log.error({ err: error }, 'unhandled error');
    const message = status === 500 ? 'internal error; the server log has the details' : error.message;
    return reply.status(status).type('text/plain; charset=utf-8').send(`${message}\n`);
  });
}
