import type { AnyKysely, Migration } from '../../../core/ports/index.js';

/** A pool id's schema at the edge: pool ids are an `integer` column (int4 on PostgreSQL). */
export const POOL_ID_SCHEMA = { type: 'integer', minimum: 0, maximum: 2_147_483_647 } as const;

/** Pool ids fixed by the first migration. */
export const DEFAULT_POOL_ID = 1;
export const BUILT_IN_POOL_ID = 2;

/**
 * The tables of the `runner-protocol` plugin. Append-only: add a migration at the end, never
 * edit one (sessions, messages and the broker add theirs after these).
 */
export const runnerProtocolMigrations: readonly Migration[] = [
  {
    name: '0001_registration',
    async up(db: AnyKysely) {
      await db.schema
        .createTable('runner_sequences')
        .addColumn('name', 'text', (c) => c.primaryKey())
        .addColumn('value', 'bigint', (c) => c.notNull())
        .execute();

      await db.schema
        .createTable('runner_pools')
        .addColumn('id', 'integer', (c) => c.primaryKey())
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('is_internal', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('is_hosted', 'integer', (c) => c.notNull().defaultTo(0))
        .execute();
      // "Default" is the group an external runner joins; the built-in pool (ephemeral guests
      // configured by JIT) is marked hosted so a configuring runner never offers it.
      await db
        .withTables<{ runner_pools: { id: number; name: string; is_internal: number; is_hosted: number } }>()
        .insertInto('runner_pools')
        .values([
          { id: DEFAULT_POOL_ID, name: 'Default', is_internal: 1, is_hosted: 0 },
          { id: BUILT_IN_POOL_ID, name: 'Built-in', is_internal: 0, is_hosted: 1 },
        ])
        .execute();

      await db.schema
        .createTable('runner_agents')
        .addColumn('id', 'bigint', (c) => c.primaryKey())
        .addColumn('pool_id', 'integer', (c) => c.notNull().references('runner_pools.id'))
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('name_key', 'text', (c) => c.notNull())
        .addColumn('version', 'text', (c) => c.notNull())
        .addColumn('os_description', 'text', (c) => c.notNull())
        .addColumn('labels', 'text', (c) => c.notNull())
        .addColumn('public_exponent', 'text', (c) => c.notNull())
        .addColumn('public_modulus', 'text', (c) => c.notNull())
        .addColumn('client_id', 'text', (c) => c.notNull().unique())
        .addColumn('authorization_url', 'text', (c) => c.notNull())
        .addColumn('ephemeral', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('disable_update', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('status', 'text', (c) => c.notNull())
        .addColumn('scope_url', 'text')
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addColumn('updated_at', 'bigint', (c) => c.notNull())
        .addUniqueConstraint('runner_agents_pool_name', ['pool_id', 'name_key'])
        .execute();
      await db.schema.createIndex('runner_agents_name').on('runner_agents').columns(['name_key']).execute();

      await db.schema
        .createTable('runner_assertion_jtis')
        .addColumn('jti', 'text', (c) => c.primaryKey())
        .addColumn('expires_at', 'bigint', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('runner_assertion_jtis_expiry').on('runner_assertion_jtis').columns(['expires_at']).execute();
    },
  },
  {
    name: '0003_sessions',
    async up(db: AnyKysely) {
      // One row per runner at most (the unique agent_id): a second live session is a conflict.
      await db.schema
        .createTable('runner_sessions')
        .addColumn('session_id', 'text', (c) => c.primaryKey())
        .addColumn('agent_id', 'bigint', (c) => c.notNull().unique())
        .addColumn('pool_id', 'integer', (c) => c.notNull())
        .addColumn('owner_name', 'text', (c) => c.notNull())
        .addColumn('session_key', 'text', (c) => c.notNull())
        .addColumn('use_fips', 'integer', (c) => c.notNull())
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addColumn('expires_at', 'bigint', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('runner_sessions_expiry').on('runner_sessions').columns(['expires_at']).execute();

      await db.schema
        .createTable('runner_messages')
        .addColumn('id', 'bigint', (c) => c.primaryKey())
        .addColumn('session_id', 'text', (c) => c.notNull())
        .addColumn('agent_id', 'bigint', (c) => c.notNull())
        .addColumn('message_type', 'text', (c) => c.notNull())
        .addColumn('body', 'text')
        .addColumn('request_id', 'bigint')
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addColumn('delivered_at', 'bigint')
        .execute();
      await db.schema.createIndex('runner_messages_session').on('runner_messages').columns(['session_id', 'id']).execute();
      await db.schema.createIndex('runner_messages_agent').on('runner_messages').columns(['agent_id']).execute();

      await db.schema
        .createTable('runner_job_requests')
        .addColumn('request_id', 'bigint', (c) => c.primaryKey())
        .addColumn('attempt', 'integer', (c) => c.notNull())
        .addColumn('agent_id', 'bigint', (c) => c.notNull())
        .addColumn('run_id', 'bigint', (c) => c.notNull())
        .addColumn('job_guid', 'text', (c) => c.notNull())
        .addColumn('plan_id', 'text', (c) => c.notNull())
        .addColumn('message_id', 'bigint', (c) => c.notNull())
        .addColumn('accepted_at', 'bigint')
        .addColumn('cancel_sent_at', 'bigint')
        .addColumn('finished_at', 'bigint')
        .addColumn('result', 'text')
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('runner_job_requests_agent').on('runner_job_requests').columns(['agent_id', 'finished_at']).execute();
    },
  },
  {
    // The node whose built-in pool minted a JIT runner (its guest dies with that machine): the
    // engine fails such a runner's job once that node is dead and the runner unheard.
    name: '0004_agent_home_node',
    async up(db: AnyKysely) {
      await db.schema.alterTable('runner_agents').addColumn('home_node', 'text').execute();
    },
  },
];
