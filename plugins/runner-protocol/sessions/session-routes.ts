import type { FastifyInstance } from 'fastify';
import type { Clock, IdGenerator } from '../../../core/ports/index.js';
import {
  ProtocolCryptoError,
  createSessionKey,
  guidSchema,
  taskAgentSessionRequestSchema,
  taskAgentSessionResponseSchema,
  wrapSessionKey,
  type TaskAgentSessionRequest,
} from '../../../core/protocol/index.js';
import { runnerOf } from '../auth/index.js';
import type { AgentsStore, PoolsStore } from '../store/index.js';
import { VssError } from '../vss/index.js';
import { poolIdParamsSchema, requireRunnerPool } from './runner-pool.js';
import { sessionResponseWire } from './session-wire.js';
import type { SessionsStore } from './sessions-store.js';
import type { LegacyFlowTimings } from './timings.js';

export const SESSIONS_PATH = '/_apis/distributedtask/pools/:poolId/sessions';

/**
 * `useFipsEncryption` of every session: false, as the runner was registered (agents/agent-wire.ts
 * answers `RequireFipsCryptography: false`), so the key is wrapped with RSA-OAEP-SHA1 — the hash
 * the runner unwraps with when the session says false (MessageListener.GetMessageDecryptor).
 */
export const SESSION_USES_FIPS = false;

/** What the runner prints on a 409 here (MessageListener.IsSessionCreationExceptionRetriable). */
export const SESSION_CONFLICT_MESSAGE = 'A session for this runner already exists.';

export interface SessionRoutesDeps {
  readonly sessions: SessionsStore;
  readonly agents: AgentsStore;
  readonly pools: PoolsStore;
  readonly clock: Clock;
  readonly ids: IdGenerator;
  readonly timings: LegacyFlowTimings;
}

const sessionParamsSchema = {
  type: 'object',
  required: ['poolId', 'sessionId'],
  properties: { ...poolIdParamsSchema.properties, sessionId: guidSchema },
} as const;

/**
 * `POST …/pools/{poolId}/sessions` opens the listener's session (§2.2): a fresh AES-256 key,
 * RSA-OAEP-wrapped with the public key the runner registered. A runner with a live session gets
 * `409 TaskAgentSessionConflictException` (it retries every 30 s for 4 minutes, then exits 5); a
 * session nobody polls expires (`sessionLeaseMs`), so a crashed listener's successor gets in.
 * `DELETE …/sessions/{sessionId}` ends it on an orderly stop.
 */
export function registerSessionRoutes(app: FastifyInstance, deps: SessionRoutesDeps): void {
  app.post<{ Params: { poolId: number }; Body: TaskAgentSessionRequest }>(
    SESSIONS_PATH,
    { schema: { params: poolIdParamsSchema, body: taskAgentSessionRequestSchema, response: { 200: taskAgentSessionResponseSchema } } },
    async (request) => {
      const runner = runnerOf(request);
      await requireRunnerPool(runner, request.params.poolId, deps.pools);
      if (request.body.agent.id !== runner.id) {
        throw new VssError(403, 'AccessDeniedException', `This access token belongs to runner ${runner.id}, not to runner ${request.body.agent.id}`);
      }
      const key = createSessionKey();
      let encryptionKey;
      try {
        encryptionKey = wrapSessionKey(key, runner.publicKey, { useFipsEncryption: SESSION_USES_FIPS });
      } catch (error) {
        if (error instanceof ProtocolCryptoError) throw new VssError(400, 'VssServiceException', `${error.message}; configure the runner again (--replace) to register a new key`);
        throw error;
      }
      const now = deps.clock.now();
      const created = await deps.sessions.create(
        {
          sessionId: deps.ids.uuid().toLowerCase(),
          agentId: runner.id,
          poolId: runner.poolId,
          ownerName: request.body.ownerName ?? '',
          sessionKey: key,
          useFips: SESSION_USES_FIPS,
          createdAt: now,
          expiresAt: now + deps.timings.sessionLeaseMs,
        },
        now,
      );
      if (created.kind === 'conflict') {
        request.log.info({ agentId: runner.id, sessionId: created.existing.sessionId, owner: created.existing.ownerName }, 'session refused: the runner has a live session');
        throw new VssError(409, 'TaskAgentSessionConflictException', SESSION_CONFLICT_MESSAGE);
      }
      await deps.agents.setStatus(runner.id, 'online');
      return sessionResponseWire(created.session, runner, encryptionKey);
    },
  );

  app.delete<{ Params: { poolId: number; sessionId: string } }>(`${SESSIONS_PATH}/:sessionId`, { schema: { params: sessionParamsSchema } }, async (request, reply) => {
    const runner = runnerOf(request);
    await requireRunnerPool(runner, request.params.poolId, deps.pools);
    // Deleting twice (or a session that already expired) is no error: the outcome is the same.
    if (await deps.sessions.remove(request.params.sessionId.toLowerCase(), runner.id)) await deps.agents.setStatus(runner.id, 'offline');
    return reply.status(204).send();
  });
}
