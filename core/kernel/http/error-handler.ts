import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { isSvcError } from '../errors.js';
import { githubApiNotFound, isGithubApiPath } from './github-api-not-found.js';

/** The one mapping from errors to HTTP: a JSON body `{ code, message }` (plus `details` when any). */
export interface ErrorBody {
  readonly code: string;
  readonly message: string;
  readonly details?: Readonly<Record<string, unknown>>;
}

function fastifyErrorBody(error: FastifyError): { status: number; body: ErrorBody } | undefined {
  if (error.validation) {
    const where = error.validationContext ?? 'request';
    return { status: 400, body: { code: 'invalid_request', message: `${where} ${error.message.replace(/^(body|querystring|params|headers)\s*/, '')}`.trim() } };
  }
  switch (error.code) {
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      return { status: 400, body: { code: 'malformed_json', message: `request body is not valid JSON: ${error.message}` } };
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return { status: 415, body: { code: 'unsupported_media_type', message: error.message } };
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return { status: 413, body: { code: 'body_too_large', message: error.message } };
  }
  if (typeof error.statusCode === 'number' && error.statusCode >= 400 && error.statusCode < 500) {
    return { status: error.statusCode, body: { code: 'invalid_request', message: error.message } };
  }
  return undefined;
}

export function installErrorHandling(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError, request: FastifyRequest, reply: FastifyReply) => {
    if (isSvcError(error)) {
      if (error.status >= 500) request.log.error({ err: error }, error.message);
      const body: ErrorBody = error.details ? { code: error.code, message: error.message, details: error.details } : { code: error.code, message: error.message };
      return reply.status(error.status).send(body);
    }
    const mapped = fastifyErrorBody(error);
    if (mapped) return reply.status(mapped.status).send(mapped.body);
    request.log.error({ err: error }, 'unhandled error');
    return reply.status(500).send({ code: 'internal_error', message: 'internal error; the server log has the details' } satisfies ErrorBody);
  });
  app.setNotFoundHandler((request, reply) => {
    const path = request.url.split('?')[0] ?? '';
    // GitHub's clients (octokit in actions, the runner) read GitHub's body there.
    if (isGithubApiPath(path)) return reply.status(404).send(githubApiNotFound(app, request.method, path));
    return reply.status(404).send({ code: 'route_not_found', message: `no route ${request.method} ${path}` } satisfies ErrorBody);
  });
}
