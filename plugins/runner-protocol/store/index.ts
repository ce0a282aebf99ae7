export { runnerProtocolMigrations, DEFAULT_POOL_ID, BUILT_IN_POOL_ID, POOL_ID_SCHEMA } from './migrations.js';
export { runnerDb, nextRunnerId, type RunnerDb, type RunnerExecutor } from './runner-db.js';
export type { RunnerJobRequestsTable, RunnerMessagesTable, RunnerSessionsTable, RunnerTables } from './tables.js';
export type { AgentDraft, AgentLabel, AgentRecord, AgentStatus, LabelType, PoolRecord, RsaPublicKey } from './records.js';
export { createPoolsStore, type PoolsStore } from './pools-store.js';
export { createAgentsStore, agentNameKey, type AgentsStore, type CreateAgentResult, type ReplaceAgentResult } from './agents-store.js';
export { createAssertionJtis, type AssertionJtis } from './assertion-jtis.js';
