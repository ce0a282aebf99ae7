export { createPostgresStore, postgresStore, POSTGRES_CAPABILITIES, type PostgresStoreOptions } from './postgres-store.js';
export { createPostgresNotifier, postgresNotifier, type PostgresNotifierOptions } from './postgres-notifier.js';
export { parsePostgresUrl, type PostgresLocation } from './connection-url.js';
export { createPostgresBlobs, postgresBlobs } from './postgres-blobs.js';
export { createPostgresBlobStore, BLOB_CHUNK_BYTES, type PostgresBlobStoreOptions } from './postgres-blob-store.js';
