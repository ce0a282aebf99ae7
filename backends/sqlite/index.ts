export { createSqliteStore, sqliteStore, SQLITE_CAPABILITIES } from './sqlite-store.js';
export { createInProcessNotifier, inProcessNotifier } from './in-process-notifier.js';
export { resolveSqliteLocation } from './sqlite-location.js';
