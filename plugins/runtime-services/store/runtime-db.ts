import type { Kysely, Transaction } from 'kysely';
import { ConflictError } from '../../../core/kernel/index.js';
import type { Database } from '../../../core/ports/index.js';
import type { RuntimeTables } from './tables.js';

export type RuntimeDb = Kysely<RuntimeTables>;
export type RuntimeExecutor = RuntimeDb | Transaction<RuntimeTables>;

export function runtimeDb(database: Database): RuntimeDb {
  return database.kysely.withTables<RuntimeTables>() as unknown as RuntimeDb;
}

/** Named counters advanced by one conditional update, so ids are distinct on every node. */
export async function nextRuntimeId(db: RuntimeExecutor, name: string): Promise<number> {
  for (let attempt = 0; attempt < 2; attempt++) {
    const row = await db
      .updateTable('runtime_sequences')
      .set((eb) => ({ value: eb('value', '+', 1) }))
      .where('name', '=', name)
      .returning('value')
      .executeTakeFirst();
    if (row) return Number(row.value);
    await db.insertInto('runtime_sequences').values({ name, value: 0 }).onConflict((oc) => oc.column('name').doNothing()).execute();
  }
  throw new Error(`sequence '${name}' could not be advanced`);
}

/** A bigint column as a number (PostgreSQL hands them over as strings). */
export function num(value: number | string): number {
  return typeof value === 'number' ? value : Number(value);
}

/** A nullable bigint column as a number or null. */
export function numOrNull(value: number | string | null): number | null {
  return value === null ? null : num(value);
}

/**
 * `work`, with a unique-key violation (two nodes inserting the same row at once; PostgreSQL's
 * SQLSTATE 23505, SQLite's SQLITE_CONSTRAINT_UNIQUE) turned into a 409 naming what collided.
 */
export async function conflictOnDuplicate<T>(work: Promise<T>, message: string): Promise<T> {
  try {
    return await work;
  } catch (error) {
    const code = (error as { code?: unknown } | null)?.code;
    if (code === '23505' || code === 'SQLITE_CONSTRAINT_UNIQUE' || code === 'SQLITE_CONSTRAINT_PRIMARYKEY') {
      throw new ConflictError(message, { code: 'already_exists', cause: error });
    }
    throw error;
  }
}
