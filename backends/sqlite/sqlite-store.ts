import { mkdir } from 'node:fs/promises';
import { dirname } from 'node:path';
import { Kysely } from 'kysely';
import { UnavailableError, type BackendContext, type Store, type StoreBackend } from '../../core/kernel/index.js';
import type { DatabaseCapabilities } from '../../core/ports/index.js';
import { createSqlStore, StoredTextPlugin } from '../sql/index.js';
import { bindableDatabase, openSqlite, SvcSqliteDialect } from './sqlite-database.js';
import { MEMORY, resolveSqliteLocation } from './sqlite-location.js';

export const SQLITE_CAPABILITIES: DatabaseCapabilities = Object.freeze({
  skipLocked: false,
  rowLocks: false,
  multiNode: false,
  dialectName: 'sqlite',
});

/** The embedded store: one better-sqlite3 connection in WAL mode (see resolveSqliteLocation). */
export async function createSqliteStore(context: BackendContext): Promise<Store> {
  const location = resolveSqliteLocation(context.url, context.dataDir);
  if (location !== MEMORY) await mkdir(dirname(location), { recursive: true });
  let connection;
  try {
    connection = openSqlite(location);
  } catch (error) {
    throw new UnavailableError(`cannot open the SQLite database at ${location}: ${(error as Error).message}`, {
      code: 'store_unavailable',
      cause: error,
    });
  }
  const kysely = new Kysely<object>({ dialect: new SvcSqliteDialect({ database: bindableDatabase(connection) }), plugins: [new StoredTextPlugin()] });
  context.logger.debug({ location }, 'sqlite store opened');

  return createSqlStore({ kysely, capabilities: SQLITE_CAPABILITIES, clock: context.clock });
}

export const sqliteStore: StoreBackend = {
  kind: 'store',
  id: 'sqlite',
  create: createSqliteStore,
};
