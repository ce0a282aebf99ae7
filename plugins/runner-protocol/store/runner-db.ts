import type { Kysely, Transaction } from 'kysely';
import type { Database } from '../../../core/ports/index.js';
import type { RunnerTables } from './tables.js';

export type RunnerDb = Kysely<RunnerTables>;
export type RunnerExecutor = RunnerDb | Transaction<RunnerTables>;

export function runnerDb(database: Database): RunnerDb {
  return database.kysely.withTables<RunnerTables>() as unknown as RunnerDb;
}

/** Named counters advanced by one conditional update, so ids are distinct on every node. */
export async function nextRunnerId(db: RunnerExecutor, name: string): Promise<number> {
  for (let attempt = 0; attempt < 2; attempt++) {
    const row = await db
      .updateTable('runner_sequences')
      .set((eb) => ({ value: eb('value', '+', 1) }))
      .where('name', '=', name)
      .returning('value')
      .executeTakeFirst();
    if (row) return Number(row.value);
    await db.insertInto('runner_sequences').values({ name, value: 0 }).onConflict((oc) => oc.column('name').doNothing()).execute();
  }
  throw new Error(`sequence '${name}' could not be advanced`);
}
