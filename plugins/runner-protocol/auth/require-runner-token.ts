import type { FastifyReply, FastifyRequest, onRequestAsyncHookHandler } from 'fastify';
import type { AgentRecord, AgentsStore } from '../store/index.js';
import { sendBearerChallenge } from '../vss/index.js';
import type { RunnerTokens } from './runner-tokens.js';

const BEARER = /^bearer\s+(\S+)\s*$/i;

/** The bearer credential of a request, if it sent one. */
export function bearerToken(request: FastifyRequest): string | undefined {
  const header = request.headers.authorization;
  return header === undefined ? undefined : BEARER.exec(header)?.[1];
}

/** Resolves a runner access token to the runner it was issued to, while that registration stands. */
export interface RunnerAuth {
  /** The runner, or undefined when the token is invalid, expired, or its registration was removed or replaced. */
  authenticate(token: string): Promise<AgentRecord | undefined>;
}

export function createRunnerAuth(deps: { readonly tokens: RunnerTokens; readonly agents: AgentsStore }): RunnerAuth {
  return {
    async authenticate(token) {
      const grant = await deps.tokens.verifyAccessToken(token);
      if (!grant) return undefined;
      const agent = await deps.agents.get(grant.agentId);
      // A replace issues a new client id: tokens of the replaced runner end with it.
      return agent !== undefined && agent.clientId === grant.clientId ? agent : undefined;
    },
  };
}

const runners = new WeakMap<FastifyRequest, AgentRecord>();

/** The runner a `requireRunnerToken` hook authenticated for this request. */
export function runnerOf(request: FastifyRequest): AgentRecord {
  const agent = runners.get(request);
  if (agent === undefined) throw new Error(`no runner was authenticated for ${request.method} ${request.url}: add requireRunnerToken to the route's context`);
  return agent;
}

/** For routes that accept other credentials too: the authenticated runner, if any. */
export function maybeRunnerOf(request: FastifyRequest): AgentRecord | undefined {
  return runners.get(request);
}

/** Marks a request as made by `agent` (for hooks that accept more than one kind of token). */
export function setRunnerOf(request: FastifyRequest, agent: AgentRecord): void {
  runners.set(request, agent);
}

/**
 * An `onRequest` hook for runner routes (sessions, messages, job requests, broker): it lets a
 * request through only with a valid runner access token, and makes the runner available through
 * `runnerOf(request)`. Anything else gets `401` with `WWW-Authenticate: Bearer` and a VSS body:
 * the challenge is what makes the runner exchange its client assertion for a fresh token (§1.9.1),
 * so an expired token heals itself.
 *
 * ```ts
 * app.addHook('onRequest', requireRunnerToken(runnerAuth));
 * app.post('/_apis/distributedtask/pools/:poolId/sessions', async (request) => { const runner = runnerOf(request); ... });
 * ```
 */
export function requireRunnerToken(auth: RunnerAuth): onRequestAsyncHookHandler {
  return async function requireRunner(request: FastifyRequest, reply: FastifyReply) {
    const token = bearerToken(request);
    if (token === undefined) return sendBearerChallenge(reply, 'this route needs a runner access token (Authorization: Bearer)');
    const agent = await auth.authenticate(token);
    if (agent === undefined) return sendBearerChallenge(reply, 'the runner access token is invalid or expired, or the runner was removed');
    runners.set(request, agent);
  };
}
