import type { RunnerDb } from './runner-db.js';
import type { PoolRecord } from './records.js';
import type { RunnerPoolsTable } from './tables.js';

function toPool(row: RunnerPoolsTable): PoolRecord {
  return { id: Number(row.id), name: row.name, isInternal: Number(row.is_internal) === 1, isHosted: Number(row.is_hosted) === 1 };
}

export interface PoolsStore {
  list(): Promise<PoolRecord[]>;
  get(id: number): Promise<PoolRecord | undefined>;
}

export function createPoolsStore(db: RunnerDb): PoolsStore {
  return {
    async list() {
      return (await db.selectFrom('runner_pools').selectAll().orderBy('id').execute()).map(toPool);
    },
    async get(id) {
      const row = await db.selectFrom('runner_pools').selectAll().where('id', '=', id).executeTakeFirst();
      return row ? toPool(row) : undefined;
    },
  };
}
