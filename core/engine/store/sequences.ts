import type { EngineExecutor } from './engine-db.js';

/**
 * Deterministic local ids: named counters advanced by one conditional statement, so every
 * node of a shared store hands out distinct, increasing values (run ids, job ids, run numbers
 * per workflow, event ids). Inside a transaction the counter row stays locked until commit.
 */
export async function nextIds(db: EngineExecutor, name: string, count = 1): Promise<number> {
  for (let attempt = 0; attempt < 2; attempt++) {
    const row = await db
      .updateTable('engine_sequences')
      .set((eb) => ({ value: eb('value', '+', count) }))
      .where('name', '=', name)
      .returning('value')
      .executeTakeFirst();
    if (row) return Number(row.value) - count + 1;
    await db.insertInto('engine_sequences').values({ name, value: 0 }).onConflict((oc) => oc.column('name').doNothing()).execute();
  }
  throw new Error(`sequence '${name}' could not be advanced`);
}
