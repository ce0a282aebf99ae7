import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { isSvcError, SvcError, type Logger } from '../../../core/kernel/index.js';

/**
 * Twirp over JSON, as the toolkit's generated clients speak it: `POST /twirp/<package.Service>/<Method>`,
 * a JSON body with proto field names (int64 as strings), a JSON answer, and errors as
 * `{code, msg}` with the HTTP status of the code (twitchtv/twirp's spec, v7).
 */
export const TWIRP_PREFIX = '/twirp';

/** Twirp error codes and their HTTP statuses. */
const TWIRP_STATUS: Readonly<Record<string, number>> = {
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
};

/** A Twirp error raised on purpose: `code` is a Twirp code. */
export class TwirpError extends SvcError {
  constructor(code: keyof typeof TWIRP_STATUS & string, message: string) {
    super(message, TWIRP_STATUS[code] ?? 500, code);
  }
}

/** The Twirp code of any error: its own when it is one, else by HTTP status. */
function twirpCode(status: number): string {
  if (status === 400 || status === 413 || status === 415 || status === 422) return 'invalid_argument';
  if (status === 401) return 'unauthenticated';
  if (status === 403) return 'permission_denied';
  if (status === 404) return 'not_found';
  if (status === 409) return 'already_exists';
  if (status === 412) return 'failed_precondition';
  if (status === 501) return 'unimplemented';
  if (status === 503) return 'unavailable';
  return 'internal';
}

export interface TwirpMethod<Body> {
  /** JSON Schema of the request body. */
  readonly schema: Readonly<Record<string, unknown>>;
  handle(body: Body, request: FastifyRequest): Promise<Readonly<Record<string, unknown>>>;
}

/** Bodies of one service's methods, by method name. */
export type TwirpMethods = Readonly<Record<string, TwirpMethod<never>>>;

/**
 * Registers `service`'s methods on `app` (an encapsulated route group: the error handler set here
 * is the group's). An unknown method is `bad_route`; a body that fails its schema is
 * `invalid_argument`; a kernel error maps by status; anything else is `internal` (and logged).
 */
export function registerTwirpService(app: FastifyInstance, service: string, methods: TwirpMethods, logger: Logger): void {
  app.setErrorHandler((error: FastifyError, request, reply) => sendTwirpError(reply, error, logger, request));
  for (const [name, method] of Object.entries(methods)) {
    app.post(`${TWIRP_PREFIX}/${service}/${name}`, { schema: { body: method.schema } }, async (request) => method.handle(request.body as never, request));
  }
  app.post(`${TWIRP_PREFIX}/${service}/*`, async (request) => {
    throw new TwirpError('bad_route', `no method ${request.url.split('?')[0]?.slice(TWIRP_PREFIX.length + service.length + 2)} in ${service}`);
  });
}

function sendTwirpError(reply: FastifyReply, error: FastifyError, logger: Logger, request: FastifyRequest): FastifyReply {
  let code: string;
  let msg = error.message;
  if (isSvcError(error)) {
    code = error.code in TWIRP_STATUS ? error.code : twirpCode(error.status);
  } else if (error.validation !== undefined) {
    code = 'invalid_argument';
    msg = `body ${error.message.replace(/^body\s*/, '')}`;
  } else if (error.code === 'FST_ERR_CTP_INVALID_JSON_BODY' || error.code === 'FST_ERR_CTP_EMPTY_JSON_BODY') {
    code = 'malformed';
  } else if (typeof error.statusCode === 'number' && error.statusCode >= 400 && error.statusCode < 500) {
    code = twirpCode(error.statusCode);
  } else {
    code = 'internal';
  }
  const status = TWIRP_STATUS[code] ?? 500;
  if (status >= 500) {
    logger.error({ err: error, url: request.url }, 'twirp call failed');
    msg = 'internal error; the server log has the details';
  }
  return reply.status(status).type('application/json').send({ code, msg });
}
