import { Kysely, PostgresDialect, sql } from 'kysely';
import pg from 'pg';
import { UnavailableError, type BackendContext, type Store, type StoreBackend } from '../../core/kernel/index.js';
import type { AnyKysely, DatabaseCapabilities } from '../../core/ports/index.js';
import { createSqlStore, StoredTextPlugin } from '../sql/index.js';
import { parsePostgresUrl } from './connection-url.js';
import { TYPE_PARSERS } from './type-parsers.js';

export const POSTGRES_CAPABILITIES: DatabaseCapabilities = Object.freeze({
  skipLocked: true,
  rowLocks: true,
  multiNode: true,
  dialectName: 'postgres',
});

const DUPLICATE_SCHEMA = '42P06';
const UNIQUE_VIOLATION = '23505';

export interface PostgresStoreOptions {
  /** Pool size; each node holds up to this many connections. */
  readonly maxConnections?: number;
}

/** The shared store: a pg Pool through Kysely; several nodes may use one database. */
export async function createPostgresStore(context: BackendContext, options: PostgresStoreOptions = {}): Promise<Store> {
  const location = parsePostgresUrl(context.url);
  const pool = new pg.Pool({
    connectionString: location.connectionString,
    types: TYPE_PARSERS,
    application_name: 'svc',
    max: options.maxConnections ?? 10,
  });
  // An idle connection that dies emits on the pool; without a listener that would crash the process.
  pool.on('error', (error) => context.logger.warn({ err: error }, 'an idle PostgreSQL connection failed'));
  const kysely = new Kysely<object>({ dialect: new PostgresDialect({ pool }), plugins: [new StoredTextPlugin()] });

  let schema: string;
  try {
    if (location.schema !== undefined) await ensureSchema(kysely, location.schema);
    schema = location.schema ?? (await currentSchema(kysely));
  } catch (error) {
    await kysely.destroy();
    throw new UnavailableError(`cannot use PostgreSQL at ${location.display}: ${(error as Error).message}`, {
      code: 'store_unavailable',
      cause: error,
    });
  }
  context.logger.debug({ database: location.display, schema }, 'postgres store opened');

  return createSqlStore({ kysely, capabilities: POSTGRES_CAPABILITIES, clock: context.clock, schema });
}

async function ensureSchema(db: AnyKysely, schema: string): Promise<void> {
  try {
    await db.schema.createSchema(schema).ifNotExists().execute();
  } catch (error) {
    // Two nodes (or tests) creating the schema at once: IF NOT EXISTS does not stop the race.
    const code = (error as { code?: unknown }).code;
    if (code !== DUPLICATE_SCHEMA && code !== UNIQUE_VIOLATION) throw error;
  }
}

async function currentSchema(db: AnyKysely): Promise<string> {
  const result = await sql<{ schema: string | null }>`select current_schema() as schema`.execute(db);
  const schema = result.rows[0]?.schema;
  if (schema === undefined || schema === null) throw new Error('no schema is selected (search_path names no existing schema)');
  return schema;
}

export const postgresStore: StoreBackend = {
  kind: 'store',
  id: 'postgres',
  create: (context) => createPostgresStore(context),
};
