import type { AnyKysely, Migration } from '../../../core/ports/index.js';

/** The plugin's append-only migrations (tables.ts has the row types). */
export const runtimeServicesMigrations: readonly Migration[] = [
  {
    name: '0001_runtime_services',
    async up(db: AnyKysely) {
      await db.schema
        .createTable('runtime_sequences')
        .addColumn('name', 'text', (c) => c.primaryKey())
        .addColumn('value', 'bigint', (c) => c.notNull())
        .execute();

      await db.schema
        .createTable('runtime_blobs')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('state', 'text', (c) => c.notNull())
        .addColumn('manifest', 'text')
        .addColumn('size', 'bigint')
        .addColumn('content_type', 'text')
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addColumn('updated_at', 'bigint', (c) => c.notNull())
        .execute();

      await db.schema
        .createTable('runtime_cache_entries')
        .addColumn('id', 'bigint', (c) => c.primaryKey())
        .addColumn('repository', 'text', (c) => c.notNull())
        .addColumn('scope', 'text', (c) => c.notNull())
        .addColumn('cache_key', 'text', (c) => c.notNull())
        .addColumn('version', 'text', (c) => c.notNull())
        .addColumn('blob_id', 'text', (c) => c.notNull())
        .addColumn('state', 'text', (c) => c.notNull())
        .addColumn('size', 'bigint')
        .addColumn('run_id', 'bigint', (c) => c.notNull())
        .addColumn('job_id', 'bigint', (c) => c.notNull())
        .addColumn('attempt', 'integer', (c) => c.notNull())
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addColumn('finalized_at', 'bigint')
        .addColumn('last_used_at', 'bigint', (c) => c.notNull())
        .addUniqueConstraint('runtime_cache_entries_identity', ['repository', 'scope', 'cache_key', 'version'])
        .execute();
      await db.schema.createIndex('runtime_cache_entries_lookup').on('runtime_cache_entries').columns(['repository', 'version', 'scope']).execute();
      await db.schema.createIndex('runtime_cache_entries_lru').on('runtime_cache_entries').columns(['repository', 'last_used_at']).execute();

      await db.schema
        .createTable('runtime_artifacts')
        .addColumn('id', 'bigint', (c) => c.primaryKey())
        .addColumn('run_id', 'bigint', (c) => c.notNull())
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('plan_id', 'text', (c) => c.notNull())
        .addColumn('job_record_id', 'text', (c) => c.notNull())
        .addColumn('job_id', 'bigint', (c) => c.notNull())
        .addColumn('attempt', 'integer', (c) => c.notNull())
        .addColumn('blob_id', 'text', (c) => c.notNull())
        .addColumn('state', 'text', (c) => c.notNull())
        .addColumn('size', 'bigint')
        .addColumn('digest', 'text')
        .addColumn('mime_type', 'text')
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addColumn('finalized_at', 'bigint')
        .addColumn('expires_at', 'bigint', (c) => c.notNull())
        .addUniqueConstraint('runtime_artifacts_name', ['run_id', 'name'])
        .execute();
      await db.schema.createIndex('runtime_artifacts_expiry').on('runtime_artifacts').columns(['expires_at']).execute();
    },
  },
];
