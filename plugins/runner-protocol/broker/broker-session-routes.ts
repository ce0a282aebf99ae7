import type { FastifyInstance } from 'fastify';
import { BROKER_SESSION_STATUS, createSessionKey, taskAgentSessionRequestSchema, type BrokerSessionRequest, type BrokerSessionResponse } from '../../../core/protocol/index.js';
import { runnerOf } from '../auth/index.js';
import { SESSION_CONFLICT_MESSAGE } from '../sessions/index.js';
import type { BrokerDeps } from './broker-deps.js';

export const BROKER_SESSION_PATH = '/broker/session';

/**
 * `POST {broker}session` (§2.5.1): the legacy session request and the same one-live-session rule,
 * kept in the same table (so a legacy session id is a broker session id after a BrokerMigration).
 * The runner reads only `sessionId` and the HTTP status (403 fatal, 409 conflict retried for 4
 * minutes); no key is handed out because broker messages are never encrypted.
 * `DELETE {broker}session` ends the runner's session, whichever it is.
 */
export function registerBrokerSessionRoutes(app: FastifyInstance, deps: BrokerDeps): void {
  app.post<{ Body: BrokerSessionRequest }>(BROKER_SESSION_PATH, { schema: { body: taskAgentSessionRequestSchema } }, async (request, reply) => {
    const runner = runnerOf(request);
    if (request.body.agent.id !== runner.id) {
      return reply.status(BROKER_SESSION_STATUS.accessDenied).send({ message: `This access token belongs to runner ${runner.id}, not to runner ${request.body.agent.id}` });
    }
    const now = deps.clock.now();
    const created = await deps.sessions.create(
      {
        sessionId: deps.ids.uuid().toLowerCase(),
        agentId: runner.id,
        poolId: runner.poolId,
        ownerName: request.body.ownerName ?? '',
        // Stored for the shared table (a legacy poll of this session encrypts with it); never sent.
        sessionKey: createSessionKey(),
        useFips: false,
        createdAt: now,
        expiresAt: now + deps.timings.sessionLeaseMs,
      },
      now,
    );
    if (created.kind === 'conflict') {
      request.log.info({ agentId: runner.id, sessionId: created.existing.sessionId }, 'broker session refused: the runner has a live session');
      return reply.status(BROKER_SESSION_STATUS.conflict).send({ message: SESSION_CONFLICT_MESSAGE });
    }
    await deps.agents.setStatus(runner.id, 'online');
    const session = created.session;
    const body: BrokerSessionResponse = {
      sessionId: session.sessionId,
      ownerName: session.ownerName,
      agent: { id: runner.id, name: runner.name, version: runner.version, osDescription: runner.osDescription, enabled: true, status: 'online' },
      useFipsEncryption: false,
    };
    return body;
  });

  app.delete(BROKER_SESSION_PATH, async (request, reply) => {
    const runner = runnerOf(request);
    if (await deps.sessions.removeOfAgent(runner.id)) await deps.agents.setStatus(runner.id, 'offline');
    return reply.status(204).send();
  });
}
