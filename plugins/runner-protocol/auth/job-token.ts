import type { FastifyInstance, FastifyReply, FastifyRequest, onRequestAsyncHookHandler } from 'fastify';
import { errors, jwtVerify, SignJWT } from 'jose';
import { acceptsCredential, AuthError } from '../../../core/kernel/index.js';
import { JOB_TOKEN_CREDENTIAL, type Clock, type IdGenerator } from '../../../core/ports/index.js';
import { vssException } from '../../../core/protocol/index.js';
import { jobIdFor } from '../job-message/index.js';
import { sendBearerChallenge } from '../vss/index.js';
import { endedOnItsRunner, JobAttemptEndedError, type JobAttempts } from './job-attempts.js';
import { bearerToken } from './require-runner-token.js';
import type { SigningKey } from './signing-key.js';

/**
 * The job access token (RUNNER-PROTOCOL.md §0.5, §3.2): the JWT the job message hands the Worker
 * in `SystemVssConnection.authorization.parameters.AccessToken`. The Worker sends it as Bearer on
 * every report (timeline, logs, feed, events, ...), the Listener on `renewjob` (run service), and
 * actions get it as `ACTIONS_RUNTIME_TOKEN`. It names one attempt of one job, so a job's token
 * opens that job's routes only, and only while that attempt is live (job-attempts.ts: checked in
 * the store on every verification); its `exp` (job timeout + margin) is a backstop.
 */

const ISSUER = 'svc';
/** Its own audience: a job token is no runner or tenant token, and vice versa. */
const JOB_AUDIENCE = 'svc:job';

/** Added to a job's timeout: cancellation, post-steps and the Listener's leftover log upload run after it. */
export const JOB_TOKEN_MARGIN_SECS = 30 * 60;

/** What a job token names. */
export interface JobTokenClaims {
  /** Engine run id. */
  readonly runId: number;
  /** Engine job row id (not the job message's GUID `jobId`; see `jobRecordId`). */
  readonly jobId: number;
  /** The runner (agent id) that acquired the job. */
  readonly agentId: number;
  /** The job message's plan id and timeline id (plan id = timeline id in our messages). */
  readonly planId: string;
  readonly timelineId: string;
  /** The job's attempt (`JobRecord.attempt`; the run attempt is part of the plan id). */
  readonly attempt: number;
  /** `scp` claim, space-joined; default `Actions.Results:<planId>:<jobRecordId>` (what `@actions/artifact` reads, §11). */
  readonly scopes?: readonly string[];
}

/** A verified token's claims, with what is derived from them. */
export interface VerifiedJobToken extends JobTokenClaims {
  readonly scopes: readonly string[];
  /** The job's GUID in the job message (`jobId` there; its timeline record id): `jobIdFor(planId, {id: jobId, attempt})`. */
  readonly jobRecordId: string;
  /** Epoch ms. */
  readonly expiresAt: number;
}

export interface JobTokens {
  mintJobToken(claims: JobTokenClaims, ttlSeconds: number): Promise<string>;
  /**
   * The claims of a valid, unexpired job token whose job attempt is live; throws `AuthError`
   * (`job_token_invalid` / `job_token_expired`) otherwise, `JobAttemptEndedError` when the attempt is over.
   */
  verifyJobToken(token: string): Promise<VerifiedJobToken>;
}

/** The lifetime to mint a job's token with: its `timeout-minutes` plus `JOB_TOKEN_MARGIN_SECS`. */
export function jobTokenTtlSeconds(timeoutMinutes: number): number {
  return Math.ceil(timeoutMinutes * 60) + JOB_TOKEN_MARGIN_SECS;
}

/** The job message GUID of the job a token names (message-ids.ts derivation). */
export function jobRecordIdOf(claims: Pick<JobTokenClaims, 'planId' | 'jobId' | 'attempt'>): string {
  return jobIdFor(claims.planId, { id: claims.jobId, attempt: claims.attempt });
}

export interface JobTokensOptions {
  readonly key: SigningKey;
  readonly clock: Clock;
  readonly ids: IdGenerator;
  /** Whether the attempt a token names is still live (the store's answer). */
  readonly attempts: JobAttempts;
}

export function createJobTokens(options: JobTokensOptions): JobTokens {
  const { key, clock, ids, attempts } = options;
  return {
    async mintJobToken(claims, ttlSeconds) {
      if (!(Number.isFinite(ttlSeconds) && ttlSeconds > 0)) throw new TypeError(`a job token needs a positive lifetime, got ${ttlSeconds}`);
      const now = Math.floor(clock.now() / 1000);
      const scopes = claims.scopes ?? [`Actions.Results:${claims.planId}:${jobRecordIdOf(claims)}`];
      return new SignJWT({
        run_id: claims.runId,
        job_id: claims.jobId,
        runner_id: claims.agentId,
        plan_id: claims.planId,
        timeline_id: claims.timelineId,
        attempt: claims.attempt,
        scp: scopes.join(' '),
      })
        .setProtectedHeader({ alg: 'RS256', typ: 'JWT', kid: key.kid })
        .setIssuer(ISSUER)
        .setAudience(JOB_AUDIENCE)
        .setSubject(`job:${claims.jobId}:${claims.attempt}`)
        .setIssuedAt(now)
        .setNotBefore(now)
        .setExpirationTime(now + Math.ceil(ttlSeconds))
        .setJti(ids.uuid())
        .sign(key.privateKey);
    },
    async verifyJobToken(token) {
      let payload;
      try {
        ({ payload } = await jwtVerify(token, key.publicKey, {
          issuer: ISSUER,
          audience: JOB_AUDIENCE,
          algorithms: ['RS256'],
          currentDate: new Date(clock.now()),
          requiredClaims: ['exp', 'sub'],
        }));
      } catch (error) {
        if (error instanceof errors.JWTExpired) throw new AuthError('the job access token has expired', { code: 'job_token_expired' });
        if (error instanceof errors.JOSEError) throw new AuthError('the job access token is not valid', { code: 'job_token_invalid' });
        throw error;
      }
      const int = (name: string): number => {
        const value = payload[name];
        if (typeof value !== 'number' || !Number.isSafeInteger(value)) throw new AuthError(`the job access token lacks '${name}'`, { code: 'job_token_invalid' });
        return value;
      };
      const text = (name: string): string => {
        const value = payload[name];
        if (typeof value !== 'string' || value === '') throw new AuthError(`the job access token lacks '${name}'`, { code: 'job_token_invalid' });
        return value;
      };
      const claims = {
        runId: int('run_id'),
        jobId: int('job_id'),
        agentId: int('runner_id'),
        planId: text('plan_id'),
        timelineId: text('timeline_id'),
        attempt: int('attempt'),
      };
      await attempts.requireLive(claims);
      const scp = payload['scp'];
      return {
        ...claims,
        scopes: typeof scp === 'string' && scp !== '' ? scp.split(' ') : [],
        jobRecordId: jobRecordIdOf(claims),
        expiresAt: int('exp') * 1000,
      };
    },
  };
}

const jobs = new WeakMap<FastifyRequest, VerifiedJobToken>();

/** The job a `requireJobToken` hook admitted this request for. */
export function jobTokenOf(request: FastifyRequest): VerifiedJobToken {
  const claims = jobs.get(request);
  if (claims === undefined) throw new Error(`no job token was verified for ${request.method} ${request.url}: add requireJobToken to the route's context`);
  return claims;
}

/** Route parameters a job token is compared with; a route that has one must match the token. */
const GUID_PARAMS = ['planId', 'timelineId'] as const;

/**
 * An `onRequest` hook for the Worker's routes: a valid job token whose plan and timeline are the
 * route's (`:planId`, `:timelineId` params, compared case-insensitively as the runner's GUIDs are)
 * is let through while its job attempt is live, and `jobTokenOf(request)` gives its claims. No
 * token, a bad one or an expired one gets `401` with the Bearer challenge; one whose attempt is
 * over what `refuseEnded` sends (the route's wire); a token of another plan or timeline gets `403` with
 * `TaskOrchestrationPlanSecurityException` (on `JobCompleted` the runner then fails the job
 * without retrying, §2.9). Jobs of one run share its plan and timeline, so routes still check
 * that the records, logs and events they touch are the token's job's (`jobRecordId`).
 */
export function requireJobToken(tokens: JobTokens, refuseEnded: RefuseEnded = refuseEndedVss): onRequestAsyncHookHandler {
  return async function requireJob(request: FastifyRequest, reply: FastifyReply) {
    const token = bearerToken(request);
    if (token === undefined) return sendBearerChallenge(reply, 'this route needs the job access token (Authorization: Bearer)');
    let claims: VerifiedJobToken;
    try {
      claims = await tokens.verifyJobToken(token);
    } catch (error) {
      if (error instanceof JobAttemptEndedError) {
        const repeat = completionRepeatAnswer(request);
        // The runner's retry of a completion whose answer it lost: answered, nothing written.
        if (repeat !== undefined && endedOnItsRunner(error)) return repeat === 204 ? reply.status(204).send() : reply.status(200).send({});
        return refuseEnded(reply, error);
      }
      if (error instanceof AuthError) return sendBearerChallenge(reply, error.message);
      throw error;
    }
    const params = (request.params ?? {}) as Readonly<Record<string, string | undefined>>;
    for (const name of GUID_PARAMS) {
      const value = params[name];
      if (value !== undefined && value.toLowerCase() !== claims[name]) {
        return sendJobForbidden(reply, `the job access token is for ${name === 'planId' ? 'plan' : 'timeline'} ${claims[name]}, not ${value}`);
      }
    }
    jobs.set(request, claims);
  };
}

/**
 * Puts every route `app` (an encapsulated context) registers from now on behind the job token:
 * `requireJobToken`, and the route table's `job-token` declaration. The one way routes take a job
 * token, so a new route in such a context is refused a finished job's token like the others.
 */
export function guardJobRoutes(app: FastifyInstance, tokens: JobTokens, refuseEnded?: RefuseEnded): void {
  acceptsCredential(app, JOB_TOKEN_CREDENTIAL);
  app.addHook('onRequest', requireJobToken(tokens, refuseEnded));
}

const COMPLETION_KEY = 'svcJobCompletion';

/**
 * Route options of a job's completion route (`JobCompleted`, `completejob`): once the job has
 * ended on the token's own runner, a repeat (the runner retries a completion whose answer was
 * lost, §4.8) gets `status` straight from the token check, and the route itself never runs, so
 * nothing is written. Any other use of a finished job's token is refused.
 */
export function completionRoute(status: 200 | 204): { readonly config: Readonly<Record<string, unknown>> } {
  return { config: { [COMPLETION_KEY]: status } };
}

function completionRepeatAnswer(request: FastifyRequest): 200 | 204 | undefined {
  const answer = (request.routeOptions.config as unknown as Readonly<Record<string, unknown>> | undefined)?.[COMPLETION_KEY];
  return answer === 200 || answer === 204 ? answer : undefined;
}

/** How a route's wire tells a token that its job attempt is over. */
export type RefuseEnded = (reply: FastifyReply, error: JobAttemptEndedError) => FastifyReply;

/**
 * The VSS answers (§2.9): a finished attempt gets what an expired token gets (401, Bearer
 * challenge; the Worker cannot renew a job token, so it gives up); a gone job and a re-run attempt
 * keep the plan exceptions the Worker stops its `JobCompleted` retries on.
 */
export const refuseEndedVss: RefuseEnded = (reply, error) => {
  if (error.ended === 'gone') return reply.status(404).type('application/json').send(vssException('TaskOrchestrationPlanNotFoundException', error.message));
  if (error.ended === 'superseded') return reply.status(409).type('application/json').send(vssException('TaskOrchestrationPlanTerminatedException', error.message));
  return sendBearerChallenge(reply, error.message);
};

/** The 403 a job's token gets on another job's resources. */
export function sendJobForbidden(reply: FastifyReply, message: string): FastifyReply {
  return reply.status(403).type('application/json').send(vssException('TaskOrchestrationPlanSecurityException', message));
}
