import type { Kysely, Transaction } from 'kysely';
import type { Database } from '../../ports/index.js';
import type { EngineTables } from './tables.js';

export type EngineDb = Kysely<EngineTables>;
export type EngineTx = Transaction<EngineTables>;
/** Either the database or a transaction on it. */
export type EngineExecutor = EngineDb | EngineTx;

export function engineDb(database: Database): EngineDb {
  return database.kysely.withTables<EngineTables>() as unknown as EngineDb;
}
