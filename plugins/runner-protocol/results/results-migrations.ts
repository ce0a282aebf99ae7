import type { AnyKysely, Migration } from '../../../core/ports/index.js';

/**
 * The results service's tables (results-tables.ts). Part of the plugin's one append-only
 * migration list (sorted by name with store/'s and worker-api/'s).
 */
export const resultsMigrations: readonly Migration[] = [
  {
    name: '0004_results_service',
    async up(db: AnyKysely) {
      await db.schema
        .createTable('runner_results_steps')
        .addColumn('job_record_id', 'text', (c) => c.notNull())
        .addColumn('external_id', 'text', (c) => c.notNull())
        .addColumn('job_id', 'bigint', (c) => c.notNull())
        .addColumn('attempt', 'integer', (c) => c.notNull())
        .addColumn('number', 'integer', (c) => c.notNull())
        .addColumn('name', 'text')
        .addColumn('state', 'text')
        .addColumn('result', 'text')
        .addColumn('started_at', 'bigint')
        .addColumn('completed_at', 'bigint')
        .addColumn('change_order', 'bigint', (c) => c.notNull())
        .addColumn('updated_at', 'bigint', (c) => c.notNull())
        .addPrimaryKeyConstraint('runner_results_steps_pk', ['job_record_id', 'external_id'])
        .execute();

      await db.schema
        .createTable('runner_results_uploads')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('job_record_id', 'text', (c) => c.notNull())
        .addColumn('kind', 'text', (c) => c.notNull())
        .addColumn('step_id', 'text', (c) => c.notNull())
        .addColumn('plan_id', 'text', (c) => c.notNull())
        .addColumn('timeline_id', 'text', (c) => c.notNull())
        .addColumn('run_id', 'bigint', (c) => c.notNull())
        .addColumn('job_id', 'bigint', (c) => c.notNull())
        .addColumn('attempt', 'integer', (c) => c.notNull())
        .addColumn('blob_type', 'text')
        .addColumn('sealed', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('block_count', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('bytes', 'bigint', (c) => c.notNull().defaultTo(0))
        .addColumn('log_id', 'bigint')
        .addColumn('completed_at', 'bigint')
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addColumn('updated_at', 'bigint', (c) => c.notNull())
        .addUniqueConstraint('runner_results_uploads_target', ['job_record_id', 'kind', 'step_id'])
        .execute();

      await db.schema
        .createTable('runner_results_blocks')
        .addColumn('upload_id', 'text', (c) => c.notNull())
        .addColumn('number', 'integer', (c) => c.notNull())
        .addColumn('blob_key', 'text', (c) => c.notNull())
        .addColumn('bytes', 'bigint', (c) => c.notNull())
        .addPrimaryKeyConstraint('runner_results_blocks_pk', ['upload_id', 'number'])
        .execute();

      await db.schema
        .createTable('runner_results_claims')
        .addColumn('job_record_id', 'text', (c) => c.notNull())
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('state', 'text', (c) => c.notNull())
        .addColumn('claimed_at', 'bigint', (c) => c.notNull())
        .addPrimaryKeyConstraint('runner_results_claims_pk', ['job_record_id', 'name'])
        .execute();
    },
  },
];
