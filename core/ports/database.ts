import type { Kysely } from 'kysely';

/**
 * What shared SQL code may branch on. Code never branches on the dialect's name (STYLE.md,
 * Kysely anchor); it asks for the capability it needs.
 */
export interface DatabaseCapabilities {
  /** `FOR UPDATE SKIP LOCKED` in claim sub-selects (PostgreSQL). */
  readonly skipLocked: boolean;
  /**
   * `SELECT ... FOR UPDATE` row locks inside a transaction (PostgreSQL). Without them (SQLite)
   * a write transaction already excludes every other writer.
   */
  readonly rowLocks: boolean;
  /** Several processes may share this database (PostgreSQL); false for the embedded store. */
  readonly multiNode: boolean;
  /** Name for logs and reports only. */
  readonly dialectName: string;
}

/** A Kysely instance over the store. Plugins narrow it to their tables with `withTables<T>()`. */
export type AnyKysely = Kysely<object>;

export interface Database {
  readonly kysely: AnyKysely;
  readonly capabilities: DatabaseCapabilities;
  /** Cheap liveness probe used by /readyz. Throws when the store cannot answer. */
  ping(): Promise<void>;
  close(): Promise<void>;
}

/** One append-only migration. Names sort in application order (use a numeric prefix). */
export interface Migration {
  readonly name: string;
  up(db: AnyKysely): Promise<void>;
}

export interface MigrationResult {
  readonly name: string;
  readonly status: 'applied' | 'failed' | 'not_executed';
}

/** Outcome of running one owner's migrations; reported, never thrown (Kysely's migrator style). */
export interface MigrationReport {
  readonly owner: string;
  readonly results: readonly MigrationResult[];
  readonly error?: Error;
}

export interface Migrator {
  /** Runs the owner's pending migrations in their own bookkeeping table. */
  migrate(owner: string, migrations: readonly Migration[]): Promise<MigrationReport>;
}
