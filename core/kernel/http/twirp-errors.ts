/**
 * Twirp's error envelope (`{"code": "...", "msg": "..."}`, twitchtv/twirp PROTOCOL.md, v7) with
 * the HTTP status each code stands for: one mapping for every plugin that serves Twirp (the
 * runner's results service, the toolkit's cache and artifact services). Clients mostly read the
 * status; a person reading a runner's or an action's diagnostics reads `msg`.
 *
 * An error names its Twirp code when it has one (a `TwirpError`, or any SvcError whose `code` is
 * a Twirp code, e.g. a ConflictError with `code: 'already_exists'`); otherwise our errors map by
 * their status, so bad input stays a 4xx here as everywhere else. Only bugs and failed
 * dependencies are `internal`, and a bug's details stay in the server log.
 */
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { isSvcError, SvcError } from '../errors.js';

export const TWIRP_STATUS = {
  canceled: 408,
  unknown: 500,
  invalid_argument: 400,
  malformed: 400,
  deadline_exceeded: 408,
  not_found: 404,
  bad_route: 404,
  already_exists: 409,
  permission_denied: 403,
  unauthenticated: 401,
  resource_exhausted: 429,
  failed_precondition: 412,
  aborted: 409,
  out_of_range: 400,
  unimplemented: 501,
  internal: 500,
  unavailable: 503,
  dataloss: 500,
} as const;

export type TwirpCode = keyof typeof TWIRP_STATUS;

export interface TwirpErrorBody {
  readonly code: TwirpCode;
  readonly msg: string;
}

export function isTwirpCode(value: string): value is TwirpCode {
  return Object.hasOwn(TWIRP_STATUS, value);
}

/** An error a Twirp route answers with exactly this code (its SvcError `code` is the Twirp code). */
export class TwirpError extends SvcError {
  constructor(code: TwirpCode, message: string) {
    super(message, TWIRP_STATUS[code], code);
  }
}

/** The Twirp code of one of our statuses (an SvcError without a Twirp code, or a 4xx Fastify raised). */
export function twirpCodeFor(status: number): TwirpCode {
  switch (status) {
    case 401:
      return 'unauthenticated';
    case 403:
      return 'permission_denied';
    case 404:
      return 'not_found';
    // A conflict without a more precise code is a race that a retry resolves.
    case 409:
      return 'aborted';
    case 412:
      return 'failed_precondition';
    case 415:
      return 'malformed';
    case 429:
      return 'resource_exhausted';
    case 501:
      return 'unimplemented';
    case 503:
      return 'unavailable';
    default:
      return status >= 400 && status < 500 ? 'invalid_argument' : 'internal';
  }
}

export function sendTwirpError(reply: FastifyReply, code: TwirpCode, message: string): FastifyReply {
  if (code === 'unauthenticated') void reply.header('www-authenticate', 'Bearer');
  const body: TwirpErrorBody = { code, msg: message };
  return reply.status(TWIRP_STATUS[code]).type('application/json').send(body);
}

/** What an error becomes on a Twirp route. */
export function twirpErrorOf(error: FastifyError | Error, request: FastifyRequest): TwirpErrorBody {
  if (isSvcError(error)) {
    if (error.status >= 500) request.log.error({ err: error }, error.message);
    return { code: isTwirpCode(error.code) ? error.code : twirpCodeFor(error.status), msg: error.message };
  }
  const fastify = error as FastifyError;
  if (fastify.validation) {
    const where = fastify.validationContext ?? 'request';
    return { code: 'invalid_argument', msg: `${where} ${fastify.message.replace(/^(body|querystring|params|headers)\s*/, '')}`.trim() };
  }
  switch (fastify.code) {
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      return { code: 'malformed', msg: `the request body is not valid JSON: ${fastify.message}` };
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return { code: 'malformed', msg: `Twirp JSON requests need Content-Type: application/json (${fastify.message})` };
  }
  if (typeof fastify.statusCode === 'number' && fastify.statusCode >= 400 && fastify.statusCode < 500) {
    return { code: twirpCodeFor(fastify.statusCode), msg: fastify.message };
  }
  request.log.error({ err: error, url: request.url }, 'twirp call failed');
  return { code: 'internal', msg: 'internal error; the server log has the details' };
}

/** Every error of the context's routes (and hooks) in the Twirp envelope. */
export function installTwirpErrorHandler(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError, request, reply) => {
    const { code, msg } = twirpErrorOf(error, request);
    return sendTwirpError(reply, code, msg);
  });
}
