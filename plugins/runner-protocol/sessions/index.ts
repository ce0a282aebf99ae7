// Legacy listener sessions (§2.2): create with an RSA-wrapped AES key, delete, expire; the pool
// check every listener route shares; the flow's timings.
export { createSessionsStore, type CreateSessionResult, type SessionRecord, type SessionsStore } from './sessions-store.js';
export { registerSessionRoutes, SESSION_CONFLICT_MESSAGE, SESSION_USES_FIPS, SESSIONS_PATH, type SessionRoutesDeps } from './session-routes.js';
export { createSessionSweeper, type SessionSweeperDeps } from './session-sweeper.js';
export { poolIdParamsSchema, requireRunnerPool } from './runner-pool.js';
export { DEFAULT_TIMINGS, legacyFlowTimings, type LegacyFlowTimings } from './timings.js';
