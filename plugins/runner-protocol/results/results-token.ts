/**
 * The job access token on the results routes. Same token and checks as the Worker's legacy
 * routes (auth/job-token.ts verifies it, and that its job attempt is live), but refusals come in
 * the Twirp envelope (`unauthenticated`; a gone job `not_found`, a re-run attempt
 * `failed_precondition`) rather than VSS exceptions: the results client is a plain HTTP client
 * that reads Twirp.
 */
import type { FastifyRequest, onRequestAsyncHookHandler } from 'fastify';
import { AuthError, TwirpError } from '../../../core/kernel/index.js';
import { bearerToken, JobAttemptEndedError, type JobTokens, type VerifiedJobToken } from '../auth/index.js';

const admitted = new WeakMap<FastifyRequest, VerifiedJobToken>();

export function requireResultsToken(tokens: JobTokens): onRequestAsyncHookHandler {
  return async function requireResultsJob(request) {
    const token = bearerToken(request);
    if (token === undefined) throw new TwirpError('unauthenticated', 'the results service needs the job access token (Authorization: Bearer)');
    try {
      admitted.set(request, await tokens.verifyJobToken(token));
    } catch (error) {
      if (error instanceof JobAttemptEndedError && error.ended === 'gone') throw new TwirpError('not_found', error.message);
      if (error instanceof JobAttemptEndedError && error.ended === 'superseded') throw new TwirpError('failed_precondition', error.message);
      if (error instanceof AuthError) throw new TwirpError('unauthenticated', error.message);
      throw error;
    }
  };
}

/** The token `requireResultsToken` admitted this request with. */
export function resultsTokenOf(request: FastifyRequest): VerifiedJobToken {
  const claims = admitted.get(request);
  if (claims === undefined) throw new Error(`no job token was verified for ${request.method} ${request.url}: add requireResultsToken to the route's context`);
  return claims;
}
