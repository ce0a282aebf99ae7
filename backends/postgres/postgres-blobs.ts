import { ConfigError, type BlobBackend, type BlobBackendContext, type BlobBackendInstance } from '../../core/kernel/index.js';
import { createHmacUrlSigner } from '../fs-blobs/index.js';
import { BLOB_MIGRATION_OWNER, BLOB_MIGRATIONS } from './blob-migrations.js';
import { createPostgresBlobStore } from './postgres-blob-store.js';

/**
 * Blobs in the PostgreSQL store's own database and schema (its connection pool and migrator),
 * so every node of the store shares them; signed URLs with the credential store's key.
 */
export async function createPostgresBlobs(context: BlobBackendContext): Promise<BlobBackendInstance> {
  const store = context.store;
  if (store === undefined || !store.database.capabilities.multiNode) {
    throw new ConfigError('blobs = "postgres" keeps blobs in the PostgreSQL store: set SVC_DATABASE_URL=postgres://... (or choose blobs = "auto")');
  }
  const report = await store.migrator.migrate(BLOB_MIGRATION_OWNER, BLOB_MIGRATIONS);
  if (report.error !== undefined) throw report.error;
  return {
    store: createPostgresBlobStore({ db: store.database.kysely, clock: context.clock }),
    signer: createHmacUrlSigner({ signingKey: context.signingKey, clock: context.clock }),
  };
}

export const postgresBlobs: BlobBackend = {
  kind: 'blobs',
  id: 'postgres',
  create: createPostgresBlobs,
};
