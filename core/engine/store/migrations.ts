import type { AnyKysely, Migration } from '../../ports/index.js';

/** The engine's tables (owned by the `engine` plugin). Append-only: add a migration, never edit one. */
export const engineMigrations: readonly Migration[] = [
  {
    name: '0001_runs_and_jobs',
    async up(db: AnyKysely) {
      await db.schema
        .createTable('engine_sequences')
        .addColumn('name', 'text', (c) => c.primaryKey())
        .addColumn('value', 'bigint', (c) => c.notNull())
        .execute();

      await db.schema
        .createTable('engine_runs')
        .addColumn('id', 'bigint', (c) => c.primaryKey())
        .addColumn('workflow_id', 'text', (c) => c.notNull())
        .addColumn('workflow_path', 'text', (c) => c.notNull())
        .addColumn('workflow_name', 'text', (c) => c.notNull())
        .addColumn('repository', 'text', (c) => c.notNull())
        .addColumn('run_number', 'bigint', (c) => c.notNull())
        .addColumn('run_attempt', 'integer', (c) => c.notNull())
        .addColumn('display_title', 'text', (c) => c.notNull())
        .addColumn('event', 'text', (c) => c.notNull())
        .addColumn('ref', 'text', (c) => c.notNull())
        .addColumn('sha', 'text', (c) => c.notNull())
        .addColumn('actor', 'text', (c) => c.notNull())
        .addColumn('trigger', 'text', (c) => c.notNull())
        .addColumn('status', 'text', (c) => c.notNull())
        .addColumn('conclusion', 'text')
        .addColumn('reason', 'text')
        .addColumn('concurrency_group', 'text')
        .addColumn('cancel_in_progress', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('payload', 'text', (c) => c.notNull())
        .addColumn('cancel_requested', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addColumn('updated_at', 'bigint', (c) => c.notNull())
        .addColumn('started_at', 'bigint')
        .addColumn('completed_at', 'bigint')
        .execute();
      await db.schema.createIndex('engine_runs_repository').on('engine_runs').columns(['repository', 'id']).execute();
      await db.schema.createIndex('engine_runs_status').on('engine_runs').columns(['status']).execute();
      await db.schema.createIndex('engine_runs_concurrency').on('engine_runs').columns(['concurrency_group', 'status']).execute();

      await db.schema
        .createTable('engine_run_files')
        .addColumn('run_id', 'bigint', (c) => c.notNull().references('engine_runs.id').onDelete('cascade'))
        .addColumn('path', 'text', (c) => c.notNull())
        .addColumn('content', 'text', (c) => c.notNull())
        .addPrimaryKeyConstraint('engine_run_files_pk', ['run_id', 'path'])
        .execute();

      await db.schema
        .createTable('engine_jobs')
        .addColumn('id', 'bigint', (c) => c.primaryKey())
        .addColumn('run_id', 'bigint', (c) => c.notNull().references('engine_runs.id').onDelete('cascade'))
        .addColumn('job_key', 'text', (c) => c.notNull())
        .addColumn('instance_id', 'text', (c) => c.notNull())
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('needs', 'text', (c) => c.notNull())
        .addColumn('matrix', 'text', (c) => c.notNull())
        .addColumn('strategy', 'text', (c) => c.notNull())
        .addColumn('runs_on', 'text', (c) => c.notNull())
        .addColumn('if_condition', 'text')
        .addColumn('continue_on_error', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('timeout_minutes', 'real', (c) => c.notNull())
        .addColumn('concurrency_group', 'text')
        .addColumn('cancel_in_progress', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('status', 'text', (c) => c.notNull())
        .addColumn('conclusion', 'text')
        .addColumn('reason', 'text')
        .addColumn('outputs', 'text', (c) => c.notNull())
        .addColumn('attempt', 'integer', (c) => c.notNull())
        .addColumn('runner_id', 'text')
        .addColumn('runner_name', 'text')
        .addColumn('lease_owner', 'text')
        .addColumn('lease_expires_at', 'bigint')
        .addColumn('cancel_requested', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addColumn('updated_at', 'bigint', (c) => c.notNull())
        .addColumn('queued_at', 'bigint')
        .addColumn('started_at', 'bigint')
        .addColumn('completed_at', 'bigint')
        .addUniqueConstraint('engine_jobs_instance', ['run_id', 'instance_id'])
        .execute();
      await db.schema.createIndex('engine_jobs_run').on('engine_jobs').columns(['run_id']).execute();
      await db.schema.createIndex('engine_jobs_queue').on('engine_jobs').columns(['status', 'queued_at']).execute();
      await db.schema.createIndex('engine_jobs_concurrency').on('engine_jobs').columns(['concurrency_group', 'status']).execute();

      await db.schema
        .createTable('engine_steps')
        .addColumn('job_id', 'bigint', (c) => c.notNull().references('engine_jobs.id').onDelete('cascade'))
        .addColumn('number', 'integer', (c) => c.notNull())
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('status', 'text', (c) => c.notNull())
        .addColumn('conclusion', 'text')
        .addColumn('started_at', 'bigint')
        .addColumn('completed_at', 'bigint')
        .addPrimaryKeyConstraint('engine_steps_pk', ['job_id', 'number'])
        .execute();

      await db.schema
        .createTable('engine_events')
        .addColumn('run_id', 'bigint', (c) => c.notNull().references('engine_runs.id').onDelete('cascade'))
        .addColumn('seq', 'bigint', (c) => c.notNull())
        .addColumn('job_id', 'bigint')
        .addColumn('type', 'text', (c) => c.notNull())
        .addColumn('body', 'text', (c) => c.notNull())
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addPrimaryKeyConstraint('engine_events_pk', ['run_id', 'seq'])
        .execute();

      await db.schema
        .createTable('engine_log_chunks')
        .addColumn('job_id', 'bigint', (c) => c.notNull().references('engine_jobs.id').onDelete('cascade'))
        .addColumn('seq', 'integer', (c) => c.notNull())
        .addColumn('step_number', 'integer')
        .addColumn('blob_key', 'text', (c) => c.notNull())
        .addColumn('first_line', 'integer', (c) => c.notNull())
        .addColumn('line_count', 'integer', (c) => c.notNull())
        .addColumn('bytes', 'integer', (c) => c.notNull())
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addPrimaryKeyConstraint('engine_log_chunks_pk', ['job_id', 'seq'])
        .execute();

      await db.schema
        .createTable('engine_annotations')
        .addColumn('id', 'bigint', (c) => c.primaryKey())
        .addColumn('run_id', 'bigint', (c) => c.notNull().references('engine_runs.id').onDelete('cascade'))
        .addColumn('job_id', 'bigint', (c) => c.notNull())
        .addColumn('level', 'text', (c) => c.notNull())
        .addColumn('message', 'text', (c) => c.notNull())
        .addColumn('title', 'text')
        .addColumn('file', 'text')
        .addColumn('start_line', 'integer')
        .addColumn('end_line', 'integer')
        .addColumn('start_column', 'integer')
        .addColumn('end_column', 'integer')
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('engine_annotations_run').on('engine_annotations').columns(['run_id', 'id']).execute();
    },
  },
  {
    // Reporting: a log chunk's place in its run's feed (a value of the same per-run counter the
    // events take, so the event stream interleaves log lines and status changes in commit
    // order); the job attempt chunks and steps belong to (re-runs reuse the job row), and the
    // runner's own number for a chunk within its attempt (the acknowledged index it resends from).
    name: '0002_reporting_attempts_and_feed',
    async up(db: AnyKysely) {
      await db.schema.alterTable('engine_log_chunks').addColumn('feed_seq', 'bigint').execute();
      await db.schema.alterTable('engine_log_chunks').addColumn('attempt', 'integer', (c) => c.notNull().defaultTo(1)).execute();
      await db.schema.alterTable('engine_log_chunks').addColumn('runner_seq', 'integer').execute();
      await db.schema.createIndex('engine_log_chunks_feed').on('engine_log_chunks').columns(['job_id', 'feed_seq']).execute();
      await db.schema.createIndex('engine_log_chunks_attempt').on('engine_log_chunks').columns(['job_id', 'attempt', 'runner_seq']).unique().execute();
      await db.schema.alterTable('engine_steps').addColumn('attempt', 'integer', (c) => c.notNull().defaultTo(1)).execute();
    },
  },
  {
    // A job whose fields read the results of the jobs it needs (a matrix from needs outputs,
    // runs-on from an output, ...) is created as a stand-in and expanded when those finish.
    name: '0003_deferred_jobs',
    async up(db: AnyKysely) {
      await db.schema.alterTable('engine_jobs').addColumn('deferred', 'integer', (c) => c.notNull().defaultTo(0)).execute();
    },
  },
  {
    // A called workflow of another repository is kept with the commit it was read at (and the
    // ref as GitHub names it), so re-runs and `job.workflow_sha` use that commit, not the ref.
    name: '0004_run_file_commits',
    async up(db: AnyKysely) {
      await db.schema.alterTable('engine_run_files').addColumn('ref', 'text').execute();
      await db.schema.alterTable('engine_run_files').addColumn('sha', 'text').execute();
    },
  },
  {
    // `concurrency.queue`: how many may wait in a group (`single` or `max`), and each waiter's
    // place in line, taken from a counter when it begins waiting (FIFO across runs and nodes).
    name: '0005_concurrency_queue',
    async up(db: AnyKysely) {
      for (const table of ['engine_runs', 'engine_jobs']) {
        await db.schema.alterTable(table).addColumn('concurrency_queue', 'text', (c) => c.notNull().defaultTo('single')).execute();
        await db.schema.alterTable(table).addColumn('concurrency_ticket', 'bigint').execute();
      }
    },
  },
  {
    // Several nodes on one store: each node's liveness lease (`engine_nodes`, through the Leases
    // helper), and on each running job the node that last heard from its runner and when, and
    // the node whose pool launched the runner, so a survivor can fail the jobs of a dead node
    // (scheduler/dead-node-jobs.ts).
    name: '0006_nodes',
    async up(db: AnyKysely) {
      await db.schema
        .createTable('engine_nodes')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('lease_owner', 'text')
        .addColumn('lease_expires_at', 'bigint')
        .addColumn('started_at', 'bigint', (c) => c.notNull())
        .addColumn('host', 'text', (c) => c.notNull())
        .addColumn('pid', 'integer', (c) => c.notNull())
        .addColumn('version', 'text', (c) => c.notNull())
        .addColumn('url', 'text')
        .execute();
      await db.schema.alterTable('engine_jobs').addColumn('node_id', 'text').execute();
      await db.schema.alterTable('engine_jobs').addColumn('heard_at', 'bigint').execute();
      await db.schema.alterTable('engine_jobs').addColumn('home_node_id', 'text').execute();
      await db.schema.createIndex('engine_jobs_node').on('engine_jobs').columns(['node_id', 'status']).execute();
    },
  },
  {
    // Secrets and variables (issue 17): the `vars` a run was planned with and the secret names
    // it could read, so re-planning at dispatch and job-level `if:` see the same; and the
    // values a submission brought for its run only, sealed, erased when the run ends.
    name: '0007_run_values',
    async up(db: AnyKysely) {
      await db.schema.alterTable('engine_runs').addColumn('vars', 'text', (c) => c.notNull().defaultTo('{}')).execute();
      await db.schema.alterTable('engine_runs').addColumn('secret_names', 'text', (c) => c.notNull().defaultTo('[]')).execute();
      await db.schema
        .createTable('engine_run_values')
        .addColumn('run_id', 'bigint', (c) => c.primaryKey())
        .addColumn('secret_names', 'text', (c) => c.notNull())
        .addColumn('var_names', 'text', (c) => c.notNull())
        .addColumn('sealed', 'text')
        .execute();
    },
  },
  {
    // Environments (`environment:` of a job) and their protection rules: the environment's name
    // and url as the job gives them, when its wait timer ends (a deadline any node's scheduler
    // honours after a restart), and the approval that released it (`admin_override`, who and when).
    name: '0008_job_environments',
    async up(db: AnyKysely) {
      await db.schema.alterTable('engine_jobs').addColumn('environment', 'text').execute();
      await db.schema.alterTable('engine_jobs').addColumn('environment_url', 'text').execute();
      await db.schema.alterTable('engine_jobs').addColumn('environment_wait_until', 'bigint').execute();
      await db.schema.alterTable('engine_jobs').addColumn('environment_approval', 'text').execute();
      await db.schema.createIndex('engine_jobs_environment_wait').on('engine_jobs').columns(['reason', 'environment_wait_until']).execute();
    },
  },
];
