import type { FastifyInstance } from 'fastify';
import type { Clock } from '../../../core/ports/index.js';
import { MessageTypes, messageDeleteQuerySchema, messagePollQuerySchema, type BrokerMigrationBody, type MessagePollQuery } from '../../../core/protocol/index.js';
import { runnerOf } from '../auth/index.js';
import type { ServerUrls } from '../job-message/index.js';
import { poolIdParamsSchema, requireRunnerPool, type SessionsStore } from '../sessions/index.js';
import type { PoolsStore } from '../store/index.js';
import { brokerUrl, tenantUrl, type RunnerUrls } from '../urls/index.js';
import { VssError } from '../vss/index.js';
import { nextMessage, type LongPollDeps } from './long-poll.js';
import { taskAgentMessageWire } from './message-wire.js';
import { pollSignal } from './poll-signal.js';

export const MESSAGES_PATH = '/_apis/distributedtask/pools/:poolId/messages';

export interface MessageRoutesDeps extends LongPollDeps {
  readonly sessions: SessionsStore;
  readonly pools: PoolsStore;
  readonly urls: RunnerUrls;
  readonly clock: Clock;
  /** `github.server_url` of job messages (the host's public URL). */
  readonly publicUrl: () => string;
  readonly shutdownSignal: AbortSignal;
  /** `SVC_RUNNER_FLOW=broker`: every legacy poll answers `BrokerMigration` (§2.5.4). */
  readonly migrateToBroker: boolean;
}

/** The id of the (unstored) `BrokerMigration` message; the runner's DELETE of it is ignored. */
export const BROKER_MIGRATION_MESSAGE_ID = 0;

const messageParamsSchema = {
  type: 'object',
  required: ['poolId', 'messageId'],
  properties: { ...poolIdParamsSchema.properties, messageId: { type: 'integer' } },
} as const;

/**
 * `GET …/pools/{poolId}/messages?sessionId=…` is the listener's long poll (§2.3.1): it answers the
 * next message encrypted with the session key, or `204` with no body when the hold ends (the
 * runner reads an empty 2xx as "no message"; §0.3). An unknown or expired session answers
 * `TaskAgentSessionExpiredException`, on which the runner opens a new session. Every poll extends
 * the session's lease (one write per poll: the lease outlasts a hold plus the runner's back-off
 * between polls). `DELETE …/messages/{messageId}?sessionId=…` acknowledges (§2.3.3); unknown
 * ids are ignored (after a BrokerMigration the runner deletes the broker's ids here, §2.5.4).
 */
export function registerMessageRoutes(app: FastifyInstance, deps: MessageRoutesDeps): void {
  const lease = (now: number) => now + deps.timings.sessionLeaseMs;

  app.get<{ Params: { poolId: number }; Querystring: MessagePollQuery }>(
    MESSAGES_PATH,
    { schema: { params: poolIdParamsSchema, querystring: messagePollQuerySchema } },
    async (request, reply) => {
      const runner = runnerOf(request);
      await requireRunnerPool(runner, request.params.poolId, deps.pools);
      const sessionId = request.query.sessionId.toLowerCase();
      const now = deps.clock.now();
      const session = await deps.sessions.touch(sessionId, runner.id, now, lease(now));
      if (!session) throw new VssError(404, 'TaskAgentSessionExpiredException', `The session ${sessionId} has expired or does not exist`);

      if (deps.migrateToBroker) {
        // The runner polls the broker once with this session id, then comes back here: the answer
        // stays BrokerMigration for as long as the server wants it on the broker.
        const body: BrokerMigrationBody = { brokerBaseUrl: brokerUrl(deps.urls.base(request)) };
        const message = { id: BROKER_MIGRATION_MESSAGE_ID, messageType: MessageTypes.BrokerMigration };
        return reply.type('application/json').send(taskAgentMessageWire(message, JSON.stringify(body), session.sessionKey));
      }
      const serverUrls: ServerUrls = { api: tenantUrl(deps.urls.base(request)), publicUrl: deps.publicUrl() };
      const poll = pollSignal(reply, deps.timings.pollHoldMs, deps.shutdownSignal);
      try {
        const delivery = await nextMessage(deps, { runner, session, poll, busy: request.query.status === 'Busy', serverUrls });
        if (delivery === undefined) return await reply.status(204).send();
        return await reply.type('application/json').send(taskAgentMessageWire(delivery.message, delivery.body, session.sessionKey));
      } finally {
        poll.dispose();
      }
    },
  );

  app.delete<{ Params: { poolId: number; messageId: number }; Querystring: { sessionId: string } }>(
    `${MESSAGES_PATH}/:messageId`,
    { schema: { params: messageParamsSchema, querystring: messageDeleteQuerySchema } },
    async (request, reply) => {
      const runner = runnerOf(request);
      await requireRunnerPool(runner, request.params.poolId, deps.pools);
      await deps.messages.acknowledge(request.params.messageId, request.query.sessionId.toLowerCase(), runner.id);
      return reply.status(204).send();
    },
  );
}
