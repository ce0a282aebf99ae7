import type { FastifyInstance } from 'fastify';
import { SignJWT } from 'jose';
import { ForbiddenError } from '../../../core/kernel/index.js';
import type { Clock, IdGenerator } from '../../../core/ports/index.js';
import type { RuntimeAuth } from '../auth/index.js';
import { CLAIMS_SUPPORTED, defaultAudience, jobClaims, subjectOf } from './oidc-claims.js';
import type { OidcKeyRing } from './oidc-keys.js';

/** `GenerateIdTokenUrl` of a job: `<this>/<planId>/<jobId>?api-version=2.0` (runner-protocol's job message). */
export const ID_TOKEN_ROUTE = '/_apis/oidc/idtoken';
export const DISCOVERY_PATH = '/.well-known/openid-configuration';
export const JWKS_PATH = '/.well-known/jwks';
/** GitHub's ID tokens live five minutes; the clock skew allowance is the verifier's. */
export const ID_TOKEN_TTL_SECS = 300;
const MAX_AUDIENCE_LENGTH = 1024;

export interface OidcRouteDeps {
  readonly auth: RuntimeAuth;
  readonly keys: OidcKeyRing;
  readonly clock: Clock;
  readonly ids: IdGenerator;
  /** The issuer: `SVC_PUBLIC_URL` (or the listening URL). */
  readonly issuer: () => string;
}

/**
 * The OIDC provider (RUNNER-PROTOCOL.md §5.2): `@actions/core.getIDToken(audience)` calls the
 * job's `ACTIONS_ID_TOKEN_REQUEST_URL` (+ `&audience=`) with `ACTIONS_ID_TOKEN_REQUEST_TOKEN`
 * (the job token) and gets `{value: <JWT>}`: RS256, GitHub's claim set, issuer `SVC_PUBLIC_URL`.
 * Only a running job whose permissions grant `id-token: write`, on its own plan and job path, gets
 * one (the URL alone is no grant: every job's token can reach it). Discovery and JWKS are public.
 */
export function registerOidcRoutes(app: FastifyInstance, deps: OidcRouteDeps): void {
  const { auth, keys, clock } = deps;
  const issuer = (): string => deps.issuer().replace(/\/+$/, '');

  app.get(DISCOVERY_PATH, async () => ({
    issuer: issuer(),
    jwks_uri: `${issuer()}${JWKS_PATH}`,
    subject_types_supported: ['public', 'pairwise'],
    response_types_supported: ['id_token'],
    claims_supported: CLAIMS_SUPPORTED,
    id_token_signing_alg_values_supported: ['RS256'],
    scopes_supported: ['openid'],
  }));

  app.get(JWKS_PATH, async (_request, reply) => {
    // Verifiers cache the set; rotation publishes a key well before it signs.
    return reply.header('cache-control', 'public, max-age=300').send({ keys: await keys.publishedKeys() });
  });

  app.register(async (tokens) => {
    auth.guard(tokens);
    tokens.get<{ Params: { planId: string; jobId: string }; Querystring: { audience?: string } }>(
      `${ID_TOKEN_ROUTE}/:planId/:jobId`,
      {
        schema: {
          params: { type: 'object', required: ['planId', 'jobId'], properties: { planId: { type: 'string' }, jobId: { type: 'string' } } },
          querystring: { type: 'object', properties: { audience: { type: 'string', minLength: 1, maxLength: MAX_AUDIENCE_LENGTH }, 'api-version': { type: 'string' } } },
        },
      },
      async (request) => {
        const job = auth.jobOf(request);
        const { planId, jobId } = request.params;
        if (planId.toLowerCase() !== job.planId || jobId.toLowerCase() !== job.jobRecordId) {
          throw new ForbiddenError(`this token is for job ${job.jobRecordId} of plan ${job.planId}`, { code: 'id_token_forbidden' });
        }
        const context = await auth.contextOf(job);
        if (context.permissions['id-token'] !== 'write') {
          throw new ForbiddenError("the job's permissions do not grant 'id-token: write'", { code: 'id_token_forbidden' });
        }
        const key = await keys.signingKey();
        const now = Math.floor(clock.now() / 1000);
        const value = await new SignJWT(jobClaims(context))
          .setProtectedHeader({ alg: 'RS256', typ: 'JWT', kid: key.kid })
          .setJti(deps.ids.uuid())
          .setSubject(subjectOf(context))
          .setAudience(request.query.audience ?? defaultAudience(context))
          .setIssuer(issuer())
          .setIssuedAt(now)
          .setNotBefore(now)
          .setExpirationTime(now + ID_TOKEN_TTL_SECS)
          .sign(key.privateKey);
        return { value };
      },
    );
  });
}
