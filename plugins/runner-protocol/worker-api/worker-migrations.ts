import type { AnyKysely, Migration } from '../../../core/ports/index.js';

/**
 * The Worker's tables (worker-tables.ts). Part of the plugin's one append-only migration list:
 * the plugin adds these after `store/`'s (sorted by name, as the migrator requires).
 */
export const workerApiMigrations: readonly Migration[] = [
  {
    name: '0002_worker_api',
    async up(db: AnyKysely) {
      await db.schema
        .createTable('runner_timeline_records')
        .addColumn('timeline_id', 'text', (c) => c.notNull())
        .addColumn('job_record_id', 'text', (c) => c.notNull())
        .addColumn('record_id', 'text', (c) => c.notNull())
        .addColumn('job_id', 'bigint', (c) => c.notNull())
        .addColumn('attempt', 'integer', (c) => c.notNull())
        .addColumn('record', 'text', (c) => c.notNull())
        .addColumn('issues_sent', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('change_id', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('updated_at', 'bigint', (c) => c.notNull())
        .addPrimaryKeyConstraint('runner_timeline_records_pk', ['timeline_id', 'job_record_id', 'record_id'])
        .execute();

      await db.schema
        .createTable('runner_task_logs')
        .addColumn('id', 'bigint', (c) => c.primaryKey())
        .addColumn('plan_id', 'text', (c) => c.notNull())
        .addColumn('job_record_id', 'text', (c) => c.notNull())
        .addColumn('job_id', 'bigint', (c) => c.notNull())
        .addColumn('attempt', 'integer', (c) => c.notNull())
        .addColumn('record_id', 'text')
        .addColumn('path', 'text', (c) => c.notNull())
        .addColumn('line_count', 'bigint', (c) => c.notNull().defaultTo(0))
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addColumn('updated_at', 'bigint', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('runner_task_logs_job').on('runner_task_logs').columns(['job_id']).execute();

      await db.schema
        .createTable('runner_task_log_pages')
        .addColumn('log_id', 'bigint', (c) => c.notNull())
        .addColumn('digest', 'text', (c) => c.notNull())
        .addColumn('state', 'text', (c) => c.notNull())
        .addColumn('claimed_at', 'bigint', (c) => c.notNull())
        .addColumn('line_count', 'bigint', (c) => c.notNull().defaultTo(0))
        .addPrimaryKeyConstraint('runner_task_log_pages_pk', ['log_id', 'digest'])
        .execute();

      await db.schema
        .createTable('runner_task_attachments')
        .addColumn('timeline_id', 'text', (c) => c.notNull())
        .addColumn('job_record_id', 'text', (c) => c.notNull())
        .addColumn('record_id', 'text', (c) => c.notNull())
        .addColumn('type', 'text', (c) => c.notNull())
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('job_id', 'bigint', (c) => c.notNull())
        .addColumn('run_id', 'bigint', (c) => c.notNull())
        .addColumn('blob_key', 'text', (c) => c.notNull())
        .addColumn('bytes', 'bigint', (c) => c.notNull())
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addPrimaryKeyConstraint('runner_task_attachments_pk', ['timeline_id', 'job_record_id', 'record_id', 'type', 'name'])
        .execute();
    },
  },
];
