import { sql } from 'kysely';
import type { Migration } from '../../core/ports/index.js';

/** Owner of the blob tables in the per-owner migrator (`svc_migrations_postgres_blobs`). */
export const BLOB_MIGRATION_OWNER = 'postgres-blobs';

/**
 * Three tables: `svc_blobs`, one row per committed blob pointing at its generation;
 * `svc_blob_uploads`, generations being written (a put that crashed leaves one, swept later);
 * `svc_blob_chunks`, the bytes of every generation in 1 MiB rows. Chunks are stored uncompressed
 * (`EXTERNAL`): blobs are mostly compressed already (cache entries, artifacts), and compressing
 * them again costs time for nothing.
 */
export const BLOB_MIGRATIONS: readonly Migration[] = [
  {
    name: '001_blobs',
    async up(db) {
      // Keys in byte order (collate "C") whatever the database's collation: a list by prefix is a
      // range scan of the primary key, in the order the filesystem store lists.
      await db.schema
        .createTable('svc_blobs')
        .addColumn('key', 'text', (column) => column.primaryKey().modifyFront(sql`collate "C"`))
        .addColumn('generation', 'text', (column) => column.notNull())
        .addColumn('size', 'bigint', (column) => column.notNull())
        .addColumn('chunks', 'integer', (column) => column.notNull())
        .addColumn('modified_at', 'bigint', (column) => column.notNull())
        .execute();
      await db.schema
        .createTable('svc_blob_uploads')
        .addColumn('generation', 'text', (column) => column.primaryKey())
        .addColumn('key', 'text', (column) => column.notNull())
        .addColumn('started_at', 'bigint', (column) => column.notNull())
        .execute();
      await db.schema.createIndex('svc_blob_uploads_started').on('svc_blob_uploads').column('started_at').execute();
      await db.schema
        .createTable('svc_blob_chunks')
        .addColumn('generation', 'text', (column) => column.notNull())
        .addColumn('idx', 'integer', (column) => column.notNull())
        .addColumn('data', 'bytea', (column) => column.notNull())
        .addPrimaryKeyConstraint('svc_blob_chunks_pk', ['generation', 'idx'])
        .execute();
      await sql`alter table svc_blob_chunks alter column data set storage external`.execute(db);
    },
  },
];
