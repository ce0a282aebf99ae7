import type { FastifyInstance } from 'fastify';
import type { Logger, Worker } from '../../../core/kernel/index.js';
import type { Engine } from '../../../core/engine/index.js';
import type { Clock, Database, IdGenerator, JobValues, Notifier } from '../../../core/ports/index.js';
import { requireRunnerToken, type JobTokens, type RunnerAuth } from '../auth/index.js';
import { createJobRequestsStore, registerJobRequestRoutes } from '../job-requests/index.js';
import { createSessionSweeper, createSessionsStore, legacyFlowTimings, registerSessionRoutes, type LegacyFlowTimings } from '../sessions/index.js';
import { runnerDb, type AgentsStore, type PoolsStore } from '../store/index.js';
import type { TokenCeiling } from '../job-message/index.js';
import type { RunnerUrls } from '../urls/index.js';
import { installVssErrorHandler } from '../vss/index.js';
import { registerMessageRoutes, type MessageRoutesDeps } from './message-routes.js';
import { createMessagesStore } from './messages-store.js';

/** Messages never acknowledged, and finished job requests, are kept this long. */
const KEEP_MESSAGES_MS = 24 * 60 * 60 * 1000;
const KEEP_REQUESTS_MS = 7 * 24 * 60 * 60 * 1000;

export interface LegacyFlowInputs {
  readonly database: Database;
  readonly engine: Engine;
  readonly notifier: Notifier;
  readonly clock: Clock;
  readonly ids: IdGenerator;
  readonly logger: Logger;
  /** Aborted when the host drains: long polls answer at once. */
  readonly shutdownSignal: AbortSignal;
  /** `github.server_url` of job messages. */
  readonly publicUrl: () => string;
  readonly agents: AgentsStore;
  readonly pools: PoolsStore;
  readonly runnerAuth: RunnerAuth;
  readonly jobTokens: JobTokens;
  readonly urls: RunnerUrls;
  readonly timings?: Partial<LegacyFlowTimings>;
  /** `SVC_RUNNER_FLOW=broker`: legacy polls answer `BrokerMigration`. */
  readonly migrateToBroker?: boolean;
  /** The operator's `[token_permissions_ceiling]`, applied to every job message. */
  readonly tokenCeiling: TokenCeiling | undefined;
  /** Secrets and variables for job messages (the secrets plugin); undefined: jobs get none. */
  readonly jobValues?: JobValues;
}

/** The legacy session + message flow: its routes (one group behind the runner token) and its sweeper. */
export interface LegacyFlow {
  readonly timings: LegacyFlowTimings;
  /** The stores and long poll the broker and run-service routes share with this flow. */
  readonly deps: MessageRoutesDeps;
  registerRoutes(app: FastifyInstance): Promise<void>;
  readonly sweeper: Worker;
}

/**
 * The listener's side of the legacy flow (RUNNER-PROTOCOL.md §2.2-§2.9): sessions, the message
 * long poll with its job dispatch and cancellations, acknowledgements, and job-request renewal and
 * finishing, all behind `requireRunnerToken` with the runner's VSS error bodies.
 */
export function createLegacyFlow(inputs: LegacyFlowInputs): LegacyFlow {
  const timings = legacyFlowTimings(inputs.timings);
  const db = runnerDb(inputs.database);
  const sessions = createSessionsStore(db);
  const messages = createMessagesStore(db);
  const requests = createJobRequestsStore(db);
  const { engine, clock, agents, pools } = inputs;
  const logger = inputs.logger.child({ flow: 'legacy-sessions' });

  const messageDeps: MessageRoutesDeps = {
    db,
    engine,
    notifier: inputs.notifier,
    jobTokens: inputs.jobTokens,
    messages,
    requests,
    agents,
    pools,
    sessions,
    urls: inputs.urls,
    clock,
    logger,
    timings,
    cancelTimeoutMs: timings.cancelTimeoutMs,
    publicUrl: inputs.publicUrl,
    shutdownSignal: inputs.shutdownSignal,
    migrateToBroker: inputs.migrateToBroker ?? false,
    tokenCeiling: inputs.tokenCeiling,
    jobValues: inputs.jobValues,
  };

  return {
    timings,
    deps: messageDeps,
    async registerRoutes(app) {
      installVssErrorHandler(app);
      await app.register(async (runnerRoutes) => {
        runnerRoutes.addHook('onRequest', requireRunnerToken(inputs.runnerAuth));
        registerSessionRoutes(runnerRoutes, { sessions, agents, pools, clock, ids: inputs.ids, timings });
        registerMessageRoutes(runnerRoutes, messageDeps);
        registerJobRequestRoutes(runnerRoutes, { engine, requests, agents, pools, clock, timings });
      });
    },
    sweeper: createSessionSweeper({
      sessions,
      agents,
      clock,
      logger,
      intervalMs: timings.sweepIntervalMs,
      chores: [(now) => messages.prune(now - KEEP_MESSAGES_MS), (now) => requests.prune(now - KEEP_REQUESTS_MS)],
    }),
  };
}
