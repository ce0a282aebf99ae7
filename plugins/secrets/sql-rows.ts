import type { Kysely } from 'kysely';
import type { AnyKysely, Database, Migration } from '../../core/ports/index.js';
import { compareRows, type StoredRow, type ValueRows } from './rows.js';
import type { Scope, ValueKind } from './scope.js';

/** `''` stands for "no repository" / "no environment", so the primary key covers every scope. */
type SecretValuesTable = {
  kind: string;
  repository: string;
  environment: string;
  name: string;
  /** A secret's sealed value (sealing.ts), a variable's plain value. */
  value: string;
  updated_at: number | string;
};

type SecretTables = {
  secret_values: SecretValuesTable;
};

export const secretsMigrations: readonly Migration[] = [
  {
    name: '0001_secret_values',
    async up(db: AnyKysely) {
      await db.schema
        .createTable('secret_values')
        .addColumn('kind', 'text', (c) => c.notNull())
        .addColumn('repository', 'text', (c) => c.notNull())
        .addColumn('environment', 'text', (c) => c.notNull())
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('value', 'text', (c) => c.notNull())
        .addColumn('updated_at', 'bigint', (c) => c.notNull())
        .addPrimaryKeyConstraint('secret_values_pk', ['kind', 'repository', 'environment', 'name'])
        .execute();
    },
  },
];

function toRow(row: SecretValuesTable): StoredRow {
  const scope: Scope = { ...(row.repository === '' ? {} : { repository: row.repository }), ...(row.environment === '' ? {} : { environment: row.environment }) };
  return { kind: row.kind as ValueKind, scope, name: row.name, value: row.value, updatedAt: Number(row.updated_at) };
}

/** The `secret_values` table on SQLite or PostgreSQL: every node reads what any node wrote. */
export function sqlRows(database: Database): ValueRows {
  const db = database.kysely.withTables<SecretTables>() as unknown as Kysely<SecretTables>;
  return {
    async put(row) {
      const values = { kind: row.kind, repository: row.scope.repository ?? '', environment: row.scope.environment ?? '', name: row.name, value: row.value, updated_at: row.updatedAt };
      await db
        .insertInto('secret_values')
        .values(values)
        .onConflict((oc) => oc.columns(['kind', 'repository', 'environment', 'name']).doUpdateSet({ value: values.value, updated_at: values.updated_at }))
        .execute();
    },
    async list(kind, filter) {
      let query = db.selectFrom('secret_values').selectAll().where('kind', '=', kind);
      if (filter.repository !== undefined) query = query.where('repository', 'in', ['', filter.repository]);
      return (await query.execute()).map(toRow).sort(compareRows);
    },
    async delete(kind, scope, name) {
      const result = await db
        .deleteFrom('secret_values')
        .where('kind', '=', kind)
        .where('repository', '=', scope.repository ?? '')
        .where('environment', '=', scope.environment ?? '')
        .where('name', '=', name)
        .executeTakeFirst();
      return Number(result.numDeletedRows) > 0;
    },
    async anySecret() {
      const row = await db.selectFrom('secret_values').selectAll().where('kind', '=', 'secret').limit(1).executeTakeFirst();
      return row === undefined ? undefined : toRow(row);
    },
  };
}
