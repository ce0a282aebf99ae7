import { sql } from 'kysely';
import type { Store } from '../../core/kernel/index.js';
import type { AnyKysely, Clock, Database, DatabaseCapabilities } from '../../core/ports/index.js';
import { createSqlLeases } from './leases.js';
import { createSqlMigrator } from './migrator.js';

export interface SqlStoreOptions {
  readonly kysely: AnyKysely;
  readonly capabilities: DatabaseCapabilities;
  readonly clock: Clock;
  /** PostgreSQL schema holding the migrations' bookkeeping tables. */
  readonly schema?: string;
}

/** The store a SQL backend hands the kernel: the database, its migrator and its leases. */
export function createSqlStore(options: SqlStoreOptions): Store {
  const { kysely, capabilities } = options;
  let closed: Promise<void> | undefined;
  const database: Database = {
    kysely,
    capabilities,
    async ping() {
      await sql`select 1`.execute(kysely);
    },
    close() {
      closed ??= kysely.destroy();
      return closed;
    },
  };
  return {
    database,
    migrator: createSqlMigrator(options.schema === undefined ? { db: kysely } : { db: kysely, schema: options.schema }),
    leases: createSqlLeases({ db: kysely, capabilities, clock: options.clock }),
  };
}
