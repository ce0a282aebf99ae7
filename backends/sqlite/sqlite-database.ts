import BetterSqlite3 from 'better-sqlite3';
import { SqliteAdapter, SqliteDialect, type SqliteDatabase, type SqliteStatement } from 'kysely';

/** How long a writer waits for another connection's write lock before SQLITE_BUSY. */
export const BUSY_TIMEOUT_MS = 5000;

/** Opens the file (or `:memory:`) with the pragmas the store relies on. */
export function openSqlite(location: string): BetterSqlite3.Database {
  const db = new BetterSqlite3(location);
  try {
    db.pragma('journal_mode = WAL');
    db.pragma(`busy_timeout = ${BUSY_TIMEOUT_MS}`);
    db.pragma('foreign_keys = ON');
    db.pragma('synchronous = NORMAL');
  } catch (error) {
    db.close();
    throw error;
  }
  return db;
}

/**
 * better-sqlite3 refuses to bind booleans; SQLite stores them as 0/1 anyway. Converting here
 * lets shared code pass `true`/`false` as it does on PostgreSQL.
 */
export function bindableDatabase(db: BetterSqlite3.Database): SqliteDatabase {
  return {
    close: () => {
      if (db.open) db.close();
    },
    prepare(text: string): SqliteStatement {
      const statement = db.prepare(text);
      return {
        reader: statement.reader,
        all: (parameters) => statement.all(toBindable(parameters)),
        run: (parameters) => statement.run(toBindable(parameters)),
        iterate: (parameters) => statement.iterate(toBindable(parameters)),
      };
    },
  };
}

function toBindable(parameters: ReadonlyArray<unknown>): unknown[] {
  return parameters.map((value) => (typeof value === 'boolean' ? (value ? 1 : 0) : value));
}

/**
 * SQLite does roll back DDL inside a transaction, but Kysely's adapter says it does not, which
 * would make a failed migration leave half a run applied. Saying so lets the migrator run each
 * owner's pending migrations in one transaction, the same contract as on PostgreSQL.
 */
class TransactionalDdlSqliteAdapter extends SqliteAdapter {
  override get supportsTransactionalDdl(): boolean {
    return true;
  }
}

export class SvcSqliteDialect extends SqliteDialect {
  override createAdapter(): SqliteAdapter {
    return new TransactionalDdlSqliteAdapter();
  }
}
