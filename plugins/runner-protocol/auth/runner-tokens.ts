import { errors, jwtVerify, SignJWT, type JWTPayload } from 'jose';
import type { Clock, IdGenerator } from '../../../core/ports/index.js';
import type { AgentRecord } from '../store/index.js';
import type { SigningKey } from './signing-key.js';

const ISSUER = 'svc';
/** Audiences keep the token kinds apart: a tenant token is no runner token and vice versa. */
const TENANT_AUDIENCE = 'svc:runner-registration';
const RUNNER_AUDIENCE = 'svc:runner';

/** Lifetime of the tenant (bootstrap) token a registration hands out. */
export const TENANT_TOKEN_TTL_SECS = 3600;
/** Lifetime of a runner access token; the runner fetches a new one on the next 401. */
export const ACCESS_TOKEN_TTL_SECS = 3600;

export type RunnerEvent = 'register' | 'remove';

/** Who holds a tenant token: a configure (or remove) of a runner for `scopeUrl`. */
export interface TenantGrant {
  readonly scopeUrl: string;
  readonly event: RunnerEvent;
}

/** The claims of a verified runner access token (the agent itself is checked by the caller). */
export interface AccessGrant {
  readonly agentId: number;
  readonly clientId: string;
}

export interface IssuedToken {
  readonly token: string;
  readonly expiresIn: number;
}

export interface RunnerTokens {
  issueTenantToken(grant: TenantGrant): Promise<IssuedToken>;
  /** The grant, or undefined for anything that is not a valid, unexpired tenant token of ours. */
  verifyTenantToken(token: string): Promise<TenantGrant | undefined>;
  issueAccessToken(agent: AgentRecord): Promise<IssuedToken>;
  verifyAccessToken(token: string): Promise<AccessGrant | undefined>;
}

export function createRunnerTokens(options: { readonly key: SigningKey; readonly clock: Clock; readonly ids: IdGenerator }): RunnerTokens {
  const { key, clock, ids } = options;
  const nowSecs = () => Math.floor(clock.now() / 1000);

  const sign = async (claims: JWTPayload, audience: string, subject: string, ttlSecs: number): Promise<IssuedToken> => {
    const now = nowSecs();
    const token = await new SignJWT(claims)
      .setProtectedHeader({ alg: 'RS256', typ: 'JWT', kid: key.kid })
      .setIssuer(ISSUER)
      .setAudience(audience)
      .setSubject(subject)
      .setIssuedAt(now)
      .setNotBefore(now)
      .setExpirationTime(now + ttlSecs)
      .setJti(ids.uuid())
      .sign(key.privateKey);
    return { token, expiresIn: ttlSecs };
  };

  const verify = async (token: string, audience: string): Promise<JWTPayload | undefined> => {
    try {
      const { payload } = await jwtVerify(token, key.publicKey, {
        issuer: ISSUER,
        audience,
        algorithms: ['RS256'],
        currentDate: new Date(clock.now()),
        requiredClaims: ['exp', 'sub'],
      });
      return payload;
    } catch (error) {
      if (error instanceof errors.JOSEError) return undefined;
      throw error;
    }
  };

  return {
    issueTenantToken: (grant) => sign({ scope_url: grant.scopeUrl, runner_event: grant.event }, TENANT_AUDIENCE, `registration:${grant.event}`, TENANT_TOKEN_TTL_SECS),
    async verifyTenantToken(token) {
      const payload = await verify(token, TENANT_AUDIENCE);
      const scopeUrl = payload?.['scope_url'];
      const event = payload?.['runner_event'];
      if (typeof scopeUrl !== 'string' || (event !== 'register' && event !== 'remove')) return undefined;
      return { scopeUrl, event };
    },
    issueAccessToken: (agent) =>
      sign(
        {
          // The claims the runner's auth-migration telemetry looks for (Runner.cs, CheckOAuthTokenClaimsAsync).
          owner_id: 0,
          runner_id: agent.id,
          runner_group_id: agent.poolId,
          scale_set_id: 0,
          is_ephemeral: agent.ephemeral,
          labels: agent.labels.map((label) => label.name),
          client_id: agent.clientId,
        },
        RUNNER_AUDIENCE,
        `runner:${agent.id}`,
        ACCESS_TOKEN_TTL_SECS,
      ),
    async verifyAccessToken(token) {
      const payload = await verify(token, RUNNER_AUDIENCE);
      const agentId = payload?.['runner_id'];
      const clientId = payload?.['client_id'];
      if (typeof agentId !== 'number' || !Number.isSafeInteger(agentId) || typeof clientId !== 'string') return undefined;
      return { agentId, clientId };
    },
  };
}
