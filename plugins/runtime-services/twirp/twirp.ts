import type { FastifyInstance, FastifyRequest } from 'fastify';
import { installTwirpErrorHandler, TwirpError } from '../../../core/kernel/index.js';

/**
 * Twirp over JSON, as the toolkit's generated clients speak it: `POST /twirp/<package.Service>/<Method>`,
 * a JSON body with proto field names (int64 as strings), a JSON answer, and errors as
 * `{code, msg}` with the HTTP status of the code (the kernel's envelope, core/kernel/http/twirp-errors.ts).
 */
export const TWIRP_PREFIX = '/twirp';

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
export function registerTwirpService(app: FastifyInstance, service: string, methods: TwirpMethods): void {
  installTwirpErrorHandler(app);
  for (const [name, method] of Object.entries(methods)) {
    app.post(`${TWIRP_PREFIX}/${service}/${name}`, { schema: { body: method.schema } }, async (request) => method.handle(request.body as never, request));
  }
  app.post(`${TWIRP_PREFIX}/${service}/*`, async (request) => {
    throw new TwirpError('bad_route', `no method ${request.url.split('?')[0]?.slice(TWIRP_PREFIX.length + service.length + 2)} in ${service}`);
  });
}
