import { decodeJwt, errors, jwtVerify, type JWTPayload } from 'jose';
import type { Clock } from '../../../core/ports/index.js';
import type { AgentRecord, AgentsStore, AssertionJtis } from '../store/index.js';
import { normalizeUrl } from '../urls/index.js';
import { publicKeyObject } from './public-key.js';

/**
 * Clock skew allowed on `nbf`/`exp` (§11: the runner sets nbf = now and exp = now + 5 min;
 * github-act-runner back-dates nbf by 30 s).
 */
export const ASSERTION_CLOCK_TOLERANCE_SECS = 300;

/** An OAuth error the token endpoint answers with (RFC 6749 §5.2). */
export class OAuthError extends Error {
  constructor(
    readonly error: 'invalid_request' | 'invalid_client' | 'invalid_grant' | 'unsupported_grant_type',
    message: string,
  ) {
    super(message);
  }
}

export interface AssertionVerifier {
  /** The runner the assertion authenticates; throws OAuthError otherwise. */
  verify(assertion: string): Promise<AgentRecord>;
}

function iso(epochSecs: number): string {
  return new Date(epochSecs * 1000).toISOString();
}

/**
 * Verifies the runner's client assertion (§1.9.2): a JWT signed (RS256, or PS256 when the runner
 * insists on FIPS) by the key it registered, `iss` = `sub` = its client id, `aud` = the token URL
 * it was given, within `nbf`..`exp`, and a `jti` not seen before.
 *
 * `invalid_client` tells the runner its registration is gone (it stops and asks to be configured
 * again), so it is kept for unknown clients and keys that no longer match; a time-window failure
 * is `invalid_grant` with the "Current server time is" wording the runner reports as clock skew.
 */
export function createAssertionVerifier(options: { readonly agents: AgentsStore; readonly jtis: AssertionJtis; readonly clock: Clock }): AssertionVerifier {
  const { agents, jtis, clock } = options;
  return {
    async verify(assertion) {
      let unverified: JWTPayload;
      try {
        unverified = decodeJwt(assertion);
      } catch {
        throw new OAuthError('invalid_request', 'client_assertion is not a JWT');
      }
      const clientId = unverified.sub;
      if (typeof clientId !== 'string' || clientId === '' || unverified.iss !== clientId) {
        throw new OAuthError('invalid_client', 'the client assertion must carry the client id as both iss and sub');
      }
      const agent = await agents.findByClientId(clientId);
      if (!agent) throw new OAuthError('invalid_client', `no runner is registered with client id ${clientId}; it was removed or replaced, configure the runner again`);
      const key = publicKeyObject(agent.publicKey);
      if (typeof key === 'string') throw new OAuthError('invalid_client', `the registered key of runner '${agent.name}' is unusable: ${key}`);

      const now = clock.now();
      let payload: JWTPayload;
      try {
        ({ payload } = await jwtVerify(assertion, key, {
          algorithms: ['RS256', 'PS256'],
          issuer: clientId,
          subject: clientId,
          currentDate: new Date(now),
          clockTolerance: ASSERTION_CLOCK_TOLERANCE_SECS,
          requiredClaims: ['aud', 'exp', 'nbf', 'jti'],
        }));
      } catch (error) {
        throw assertionFailure(error, now);
      }
      const audiences = Array.isArray(payload.aud) ? payload.aud : [payload.aud];
      const expected = normalizeUrl(agent.authorizationUrl);
      if (!audiences.some((aud) => typeof aud === 'string' && normalizeUrl(aud) === expected)) {
        throw new OAuthError('invalid_client', `the client assertion's audience must be ${agent.authorizationUrl}`);
      }
      const jti = payload.jti;
      const exp = payload.exp;
      if (typeof jti !== 'string' || jti === '' || typeof exp !== 'number') throw new OAuthError('invalid_request', 'the client assertion needs jti and exp');
      if (!(await jtis.claim(jti, (exp + ASSERTION_CLOCK_TOLERANCE_SECS) * 1000, now))) {
        throw new OAuthError('invalid_grant', `the client assertion ${jti} was already used; sign a new one`);
      }
      return agent;
    },
  };
}

function assertionFailure(error: unknown, now: number): OAuthError {
  const serverTime = `Current server time is ${new Date(now).toISOString()}.`;
  if (error instanceof errors.JWTExpired) {
    const exp = error.payload.exp;
    return new OAuthError('invalid_grant', `The bearer token expired on ${typeof exp === 'number' ? iso(exp) : 'an earlier date'}. ${serverTime}`);
  }
  if (error instanceof errors.JWTClaimValidationFailed && error.claim === 'nbf') {
    const nbf = error.payload.nbf;
    return new OAuthError('invalid_grant', `The bearer token is not valid until ${typeof nbf === 'number' ? iso(nbf) : 'a later date'}. ${serverTime}`);
  }
  if (error instanceof errors.JWSSignatureVerificationFailed) {
    return new OAuthError('invalid_client', "the client assertion's signature does not match the runner's registered key; configure the runner again");
  }
  if (error instanceof errors.JOSEAlgNotAllowed) return new OAuthError('invalid_client', 'the client assertion must be signed with RS256 or PS256');
  if (error instanceof errors.JWTClaimValidationFailed) return new OAuthError('invalid_client', `the client assertion's ${error.claim} claim is invalid: ${error.message}`);
  if (error instanceof errors.JOSEError) return new OAuthError('invalid_request', `the client assertion is malformed: ${error.message}`);
  throw error;
}
