// The plugin's tables: blobs behind signed URLs, cache entries, artifacts, id counters.
export { runtimeServicesMigrations } from './migrations.js';
export { conflictOnDuplicate, nextRuntimeId, num, numOrNull, runtimeDb, type RuntimeDb, type RuntimeExecutor } from './runtime-db.js';
export type { RuntimeArtifactsTable, RuntimeBlobsTable, RuntimeCacheEntriesTable, RuntimeTables } from './tables.js';
