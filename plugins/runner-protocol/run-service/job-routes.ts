import type { FastifyInstance, FastifyReply } from 'fastify';
import type { JobRecord } from '../../../core/engine/index.js';
import {
  completeJobRequestSchema,
  renewJobRequestSchema,
  type CompleteJobRequest,
  type RenewJobRequest,
  type RenewJobResponse,
} from '../../../core/protocol/index.js';
import { completionRoute, guardJobRoutes, jobTokenOf, type RefuseEnded, type VerifiedJobToken } from '../auth/index.js';
import { completionOf, engineRunnerId, taskResultName } from '../job-requests/index.js';
import { JOB_REPORT_BODY_LIMIT } from '../worker-api/index.js';
import type { RunServiceDeps } from './run-service-deps.js';
import { sendRunServiceError } from './run-service-reply.js';

export const RENEW_JOB_PATH = '/run-service/renewjob';
export const COMPLETE_JOB_PATH = '/run-service/completejob';

/** The token's job when the body names it (plan and job GUID) and it is still its runner's attempt. */
async function jobOf(deps: RunServiceDeps, claims: VerifiedJobToken, body: { readonly planId: string; readonly jobId: string }): Promise<JobRecord | undefined> {
  if (body.planId.toLowerCase() !== claims.planId || body.jobId.toLowerCase() !== claims.jobRecordId) return undefined;
  const job = await deps.engine.getJob(claims.jobId);
  if (job === undefined || job.runnerId !== engineRunnerId(claims.agentId) || job.attempt !== claims.attempt) return undefined;
  return job;
}

function notFound(reply: FastifyReply, body: { readonly jobId: string }): FastifyReply {
  return sendRunServiceError(reply, 404, `Job ${body.jobId} was not found for this token`);
}

/**
 * A token whose attempt is over: on `completejob` a finished job's is a 401 (the runner stops at
 * once on it, §4.8); on `renewjob`, and for a gone or re-run job, the run service's 404, the one
 * answer that stops the runner's renewal (§2.7: it retries anything else, then trips over it).
 */
const refuseEnded: RefuseEnded = (reply, error) => {
  const renewal = reply.request.routeOptions.url === RENEW_JOB_PATH;
  return sendRunServiceError(reply, error.ended === 'finished' && !renewal ? 401 : 404, error.message);
};

/**
 * The run service's job routes (§2.7, §2.8; job token): `renewjob` extends the engine's lease to
 * the lock (the first renewal is the runner accepting the job) and answers `lockedUntil`; a job
 * that is over or not the token's answers 404, which stops renewal (the Listener then cancels its
 * Worker). `completejob` records the step results and annotations (results/), then the
 * conclusion and outputs. Both take the job token only while its attempt is live: once the job is
 * finished, a repeated `completejob` of its runner is answered 200 without running (auth's
 * `completionRoute`), and anything else refused.
 */
export async function registerRunServiceJobRoutes(app: FastifyInstance, deps: RunServiceDeps): Promise<void> {
  await app.register(async (jobRoutes) => {
    guardJobRoutes(jobRoutes, deps.jobTokens, refuseEnded);

    jobRoutes.post<{ Body: RenewJobRequest }>(RENEW_JOB_PATH, { schema: { body: renewJobRequestSchema } }, async (request, reply) => {
      const claims = jobTokenOf(request);
      const job = await jobOf(deps, claims, request.body);
      if (job === undefined || job.status !== 'in_progress') return notFound(reply, request.body);
      const renewed = await deps.engine.renewJob(job.id, engineRunnerId(claims.agentId), deps.timings.jobLockMs);
      if (!renewed.held) return notFound(reply, request.body);
      if (await deps.requests.markAccepted(job.id, job.attempt, deps.clock.now())) {
        request.log.info({ agentId: claims.agentId, jobId: job.id, runId: job.runId }, 'the runner accepted the job (first renewjob)');
      }
      const answer: RenewJobResponse = { lockedUntil: new Date(renewed.leaseExpiresAt).toISOString() };
      return answer;
    });

    jobRoutes.post<{ Body: CompleteJobRequest }>(COMPLETE_JOB_PATH, { schema: { body: completeJobRequestSchema }, ...completionRoute(200), bodyLimit: JOB_REPORT_BODY_LIMIT }, async (request, reply) => {
      const claims = jobTokenOf(request);
      const result = taskResultName(request.body.conclusion);
      if (result === undefined) return sendRunServiceError(reply, 422, `Unknown conclusion '${String(request.body.conclusion)}'`);
      const job = await jobOf(deps, claims, request.body);
      if (job === undefined) return notFound(reply, request.body);
      // Steps and annotations first, as the legacy Worker reports them before JobCompleted; a
      // repeat (the runner retries) records them again without duplicating an annotation.
      await deps.results.report({ jobId: job.id, runnerId: engineRunnerId(claims.agentId), jobRecordId: claims.jobRecordId }, request.body);
      if (job.status === 'in_progress') {
        const outputs: Record<string, string> = {};
        for (const [name, output] of Object.entries(request.body.outputs ?? {})) outputs[name] = output.value ?? '';
        await deps.engine.completeJob(job.id, engineRunnerId(claims.agentId), { ...completionOf(result), outputs });
      }
      await deps.requests.markFinished(job.id, job.attempt, deps.clock.now(), result);
      await deps.agents.setStatus(claims.agentId, 'online');
      return reply.status(200).send({});
    });
  });
}
