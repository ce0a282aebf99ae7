import type { FastifyInstance } from 'fastify';
import {
  acknowledgeQuerySchema,
  acknowledgeRequestSchema,
  messagePollQuerySchema,
  type AcknowledgeQuery,
  type AcknowledgeRequest,
  type MessagePollQuery,
} from '../../../core/protocol/index.js';
import { runnerOf } from '../auth/index.js';
import type { ServerUrls } from '../job-message/index.js';
import { engineRunnerId } from '../job-requests/index.js';
import { nextMessage, pollSignal } from '../messages/index.js';
import { runServiceUrl } from '../urls/index.js';
import type { BrokerDeps } from './broker-deps.js';
import { brokerMessageWire } from './broker-message-wire.js';
import { sendBrokerError } from './broker-reply.js';

export const BROKER_MESSAGE_PATH = '/broker/message';
export const BROKER_ACKNOWLEDGE_PATH = '/broker/acknowledge';

/**
 * `GET {broker}message?sessionId=…` is the broker long poll (§2.5.2): the legacy flow's long poll
 * (one job per runner, cancellations, the delivery lease) with jobs handed out as `RunnerJobRequest`
 * references, plain JSON, or an empty `200` when the hold ends (the runner polls again at once).
 * An unknown or expired session — legacy ids included, for a runner that came by BrokerMigration —
 * answers `RunnerSessionInvalid`: the runner opens a new session and goes on.
 *
 * `POST {broker}acknowledge` (§2.5.3): the runner confirms it got the job request before acquiring
 * it; a request that is not its own, or is over, answers `AcknowledgeJobNotFound` (an ephemeral
 * runner then exits).
 */
export function registerBrokerMessageRoutes(app: FastifyInstance, deps: BrokerDeps): void {
  app.get<{ Querystring: MessagePollQuery }>(BROKER_MESSAGE_PATH, { schema: { querystring: messagePollQuerySchema } }, async (request, reply) => {
    const runner = runnerOf(request);
    const sessionId = request.query.sessionId.toLowerCase();
    const now = deps.clock.now();
    const session = await deps.sessions.touch(sessionId, runner.id, now, now + deps.timings.sessionLeaseMs);
    if (!session) return sendBrokerError(reply, 'RunnerSessionInvalid', `The session ${sessionId} has expired or does not exist`);

    const runService = runServiceUrl(deps.urls.base(request));
    const serverUrls: ServerUrls = { api: runService, publicUrl: deps.publicUrl() };
    const poll = pollSignal(reply, deps.timings.pollHoldMs, deps.shutdownSignal);
    try {
      const delivery = await nextMessage(deps, { runner, session, poll, busy: request.query.status === 'Busy', serverUrls, broker: true });
      if (delivery === undefined) return await reply.status(200).send();
      return await reply.type('application/json').send(brokerMessageWire(delivery, runService));
    } finally {
      poll.dispose();
    }
  });

  app.post<{ Querystring: AcknowledgeQuery; Body: AcknowledgeRequest }>(
    BROKER_ACKNOWLEDGE_PATH,
    { schema: { querystring: acknowledgeQuerySchema, body: acknowledgeRequestSchema } },
    async (request, reply) => {
      const runner = runnerOf(request);
      const requestId = Number(request.body.runnerRequestId);
      const held = Number.isSafeInteger(requestId) ? await deps.requests.get(requestId) : undefined;
      // A job ended, or cancelled before the runner accepted it, is gone too (2.336+: an ephemeral
      // runner then exits instead of acquiring). A cancel not acted on yet ends the job here, as
      // the long poll would (held-job.ts): no Worker ever ran it.
      const job = held === undefined ? undefined : await deps.engine.getJob(held.requestId);
      let gone = job === undefined || job.attempt !== held?.attempt || job.status !== 'in_progress' || job.runnerId !== engineRunnerId(runner.id);
      if (!gone && held !== undefined && job?.cancelRequested === true && held.acceptedAt === null) {
        if (await deps.requests.markCancelSent(held.requestId, held.attempt, deps.clock.now())) {
          await deps.engine.completeJob(held.requestId, engineRunnerId(runner.id), { outcome: 'cancelled' });
          request.log.info({ agentId: runner.id, jobId: held.requestId }, 'job cancelled before its runner acknowledged it');
        }
        gone = true;
      }
      if (held === undefined || held.agentId !== runner.id || held.finishedAt !== null || gone) {
        return sendBrokerError(reply, 'AcknowledgeJobNotFound', `Job request ${request.body.runnerRequestId} was not found for runner '${runner.name}'`);
      }
      return reply.status(200).send({});
    },
  );
}
