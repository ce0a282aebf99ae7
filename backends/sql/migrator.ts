import { Migrator as KyselyMigrator, type Migration as KyselyMigration, type MigrationResultSet } from 'kysely';
import type { AnyKysely, Migration, MigrationReport, MigrationResult, Migrator } from '../../core/ports/index.js';

/** Plugin ids are kebab-case; `-` becomes `_` in the table name, so `_` itself is not allowed. */
const OWNER = /^[a-z][a-z0-9]*(?:-[a-z0-9]+)*$/;
const TABLE_PREFIX = 'svc_migrations_';
const LOCK_SUFFIX = '_lock';
/** Keeps `svc_migrations_<owner>_lock` within PostgreSQL's 63-character identifiers. */
const MAX_OWNER_LENGTH = 63 - TABLE_PREFIX.length - LOCK_SUFFIX.length;

export interface SqlMigratorOptions {
  readonly db: AnyKysely;
  /**
   * Schema holding the bookkeeping tables. Needed on PostgreSQL: Kysely looks the tables up
   * across all schemas, so without it a table in another schema would count as ours.
   */
  readonly schema?: string;
}

export function migrationTableName(owner: string): string {
  return `${TABLE_PREFIX}${owner.replaceAll('-', '_')}`;
}

/**
 * Runs each owner's append-only migrations through Kysely's Migrator, one bookkeeping table
 * (and lock table) per owner. A run is one transaction on dialects with transactional DDL
 * (both of ours): when a migration fails, the whole run is rolled back and the report says so,
 * marking the run's earlier migrations `not_executed`. Problems are reported, never thrown.
 */
export function createSqlMigrator(options: SqlMigratorOptions): Migrator {
  const transactional = options.db.getExecutor().adapter.supportsTransactionalDdl;

  return {
    async migrate(owner, migrations) {
      const problem = checkInput(owner, migrations);
      if (problem !== undefined) return { owner, results: [], error: problem };

      const table = migrationTableName(owner);
      const migrator = new KyselyMigrator({
        db: options.db,
        provider: { getMigrations: async () => toKyselyMigrations(migrations) },
        migrationTableName: table,
        migrationLockTableName: `${table}${LOCK_SUFFIX}`,
        ...(options.schema === undefined ? {} : { migrationTableSchema: options.schema }),
        allowUnorderedMigrations: false,
        // Kysely orders the provider's names with Array#sort; tie-break applied ones the same way.
        nameComparator: (a, b) => (a < b ? -1 : a > b ? 1 : 0),
      });
      // Kysely's existence check lists the tables of every schema (and asks for each column's
      // serial sequence by the table's name); a schema dropped by someone else meanwhile (another
      // installation sharing the database, tests) makes that one query fail although nothing of
      // ours changed. Nothing ran yet in that case, so ask again.
      for (let attempt = 1; ; attempt++) {
        const result = await migrator.migrateToLatest();
        if (attempt < 5 && nothingRan(result) && isForeignSchemaRace(result.error, options.schema)) {
          await new Promise((resolve) => setTimeout(resolve, 20 * attempt));
          continue;
        }
        return toReport(owner, result, transactional);
      }
    },
  };
}

function nothingRan(result: MigrationResultSet): boolean {
  return (result.results ?? []).every((migration) => migration.status === 'NotExecuted');
}

/**
 * What the catalog says when a schema, table or column vanishes under that query: `schema "x"
 * does not exist`, `relation "x.t" does not exist` (x not ours), or `column "c" of relation "t"
 * does not exist` (no schema named; before any migration ran only Kysely's own queries did, and
 * they read columns only through that listing).
 */
export function isForeignSchemaRace(error: unknown, ours: string | undefined): boolean {
  const message = error instanceof Error ? error.message : '';
  if (/^column "[^"]+" of relation "[^".]+" does not exist$/.test(message)) return true;
  const schema = /schema "([^"]+)" does not exist/.exec(message)?.[1] ?? /relation "([^".]+)\.[^"]+" does not exist/.exec(message)?.[1];
  return schema !== undefined && schema !== ours;
}

function checkInput(owner: string, migrations: readonly Migration[]): Error | undefined {
  if (!OWNER.test(owner) || owner.length > MAX_OWNER_LENGTH) {
    return new Error(
      `migration owner ${JSON.stringify(owner)} must be a kebab-case plugin id (a-z, 0-9, single hyphens) of at most ${MAX_OWNER_LENGTH} characters`,
    );
  }
  const seen = new Set<string>();
  let previous: string | undefined;
  for (const migration of migrations) {
    const name = migration.name;
    if (name.length === 0) return new Error(`migrations of ${owner}: a migration has an empty name`);
    if (seen.has(name)) return new Error(`migrations of ${owner}: ${name} is listed twice`);
    if (previous !== undefined && name < previous) {
      return new Error(
        `migrations of ${owner}: ${name} is listed after ${previous}; list migrations in name order (they run in that order)`,
      );
    }
    seen.add(name);
    previous = name;
  }
  return undefined;
}

function toKyselyMigrations(migrations: readonly Migration[]): Record<string, KyselyMigration> {
  const out: Record<string, KyselyMigration> = {};
  for (const migration of migrations) out[migration.name] = { up: (db) => migration.up(db) };
  return out;
}

function toReport(owner: string, set: MigrationResultSet, transactional: boolean): MigrationReport {
  const failed = set.error !== undefined;
  const results: MigrationResult[] = (set.results ?? []).map((result) => ({
    name: result.migrationName,
    status:
      result.status === 'Error'
        ? 'failed'
        : result.status === 'Success' && !(failed && transactional)
          ? 'applied'
          : 'not_executed',
  }));
  if (!failed) return { owner, results };
  const failedName = results.find((result) => result.status === 'failed')?.name;
  const cause = set.error;
  const reason = cause instanceof Error ? cause.message : String(cause);
  const rolledBack = transactional ? ' (the run was rolled back)' : '';
  const head = failedName === undefined ? `migrations of ${owner}` : `migrations of ${owner}: ${failedName} failed${rolledBack}`;
  return { owner, results, error: new Error(`${head}: ${reason}`, { cause }) };
}
