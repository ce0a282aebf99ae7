import type { FastifyReply, FastifyRequest, onRequestAsyncHookHandler } from 'fastify';
import { bearerToken, setRunnerOf, type RunnerAuth, type RunnerTokens, type TenantGrant } from '../auth/index.js';
import type { AgentRecord } from '../store/index.js';
import { sendBearerChallenge, VssError } from '../vss/index.js';

/** Who calls the pool and agent routes: a configure/remove (tenant token) or a configured runner. */
export type Caller = { readonly kind: 'tenant'; readonly grant: TenantGrant } | { readonly kind: 'runner'; readonly agent: AgentRecord };

const callers = new WeakMap<FastifyRequest, Caller>();

/**
 * Accepts the tenant token a registration handed out, or a runner access token (the runner's
 * post-configure check lists pools with it). Without either: the Bearer challenge, which is also
 * how the runner's OAuth credential learns to fetch its first token (§1.9.1).
 */
export function authenticateCaller(deps: { readonly tokens: RunnerTokens; readonly runnerAuth: RunnerAuth }): onRequestAsyncHookHandler {
  return async function callerHook(request: FastifyRequest, reply: FastifyReply) {
    const token = bearerToken(request);
    if (token === undefined) return sendBearerChallenge(reply, 'send the registration (tenant) token or a runner access token as Authorization: Bearer');
    const grant = await deps.tokens.verifyTenantToken(token);
    if (grant) {
      callers.set(request, { kind: 'tenant', grant });
      return;
    }
    const agent = await deps.runnerAuth.authenticate(token);
    if (agent) {
      callers.set(request, { kind: 'runner', agent });
      setRunnerOf(request, agent);
      return;
    }
    return sendBearerChallenge(reply, 'the token is invalid or expired; register again (config.sh) or let the runner fetch a new one');
  };
}

export function callerOf(request: FastifyRequest): Caller {
  const caller = callers.get(request);
  if (caller === undefined) throw new Error('authenticateCaller did not run for this route');
  return caller;
}

/** Changing registrations takes a tenant token; a runner's own token only reads. */
export function requireTenant(request: FastifyRequest): TenantGrant {
  const caller = callerOf(request);
  if (caller.kind !== 'tenant') {
    throw new VssError(403, 'VssServiceException', 'a runner access token cannot change registrations; use the token of a registration (config.sh --token)', {
      code: 'registration_token_required',
    });
  }
  return caller.grant;
}
