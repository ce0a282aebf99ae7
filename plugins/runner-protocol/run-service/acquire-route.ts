import type { FastifyInstance } from 'fastify';
import { acquireJobRequestSchema, type AcquireJobRequest } from '../../../core/protocol/index.js';
import { runnerOf } from '../auth/index.js';
import { engineRunnerId } from '../job-requests/index.js';
import { jobMessageForDelivery } from '../messages/index.js';
import type { RunServiceDeps } from './run-service-deps.js';
import { sendRunServiceError } from './run-service-reply.js';

export const ACQUIRE_JOB_PATH = '/run-service/acquirejob';

/**
 * `POST {run_service_url}acquirejob` (§2.6, runner token): the job message of a `RunnerJobRequest`
 * the broker handed this runner, built when the job was claimed (`messageType: RunnerJobRequest`,
 * SystemVssConnection at the run service) and given its job token now. Handed out once: a second acquire answers
 * 409; a request that is not the runner's, or whose job is no longer its own, 404. Both make the
 * runner skip the message.
 */
export function registerAcquireRoute(app: FastifyInstance, deps: RunServiceDeps): void {
  app.post<{ Body: AcquireJobRequest }>(ACQUIRE_JOB_PATH, { schema: { body: acquireJobRequestSchema } }, async (request, reply) => {
    const runner = runnerOf(request);
    const requestId = Number(request.body.jobMessageId);
    const notFound = () => sendRunServiceError(reply, 404, `Job request ${request.body.jobMessageId} was not found for runner '${runner.name}'`);
    if (!Number.isSafeInteger(requestId)) return notFound();
    const held = await deps.requests.get(requestId);
    const job = await deps.engine.getJob(requestId);
    const mine = held !== undefined && held.agentId === runner.id && job !== undefined && job.runnerId === engineRunnerId(runner.id) && job.attempt === held.attempt;
    if (!mine || job.status !== 'in_progress' || held.finishedAt !== null) return notFound();
    const taken = await deps.messages.takeJobBody(requestId, runner.id);
    if (taken === undefined) return notFound();
    if (!('body' in taken)) return sendRunServiceError(reply, 409, `Job request ${requestId} was already acquired`);
    request.log.info({ agentId: runner.id, jobId: job.id, runId: job.runId }, 'the runner acquired the job');
    return reply.type('application/json').send(await jobMessageForDelivery(deps.jobTokens, deps.jobValues, taken.body, job, runner.id));
  });
}
