export { createPostgresStore, postgresStore, POSTGRES_CAPABILITIES, type PostgresStoreOptions } from './postgres-store.js';
export { createPostgresNotifier, postgresNotifier, type PostgresNotifierOptions } from './postgres-notifier.js';
export { parsePostgresUrl, type PostgresLocation } from './connection-url.js';
