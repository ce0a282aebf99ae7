import type { JobRecord, RunRecord, RunSuppliedValues } from '../model/records.js';
import type { EngineExecutor } from './engine-db.js';
import { parseJson, toJobRecord, toRunRecord } from './mappers.js';

export async function loadRun(db: EngineExecutor, runId: number, lock = false): Promise<RunRecord | undefined> {
  let query = db.selectFrom('engine_runs').selectAll().where('id', '=', runId);
  if (lock) query = query.forUpdate();
  const row = await query.executeTakeFirst();
  return row ? toRunRecord(row) : undefined;
}

export async function loadJobs(db: EngineExecutor, runId: number): Promise<JobRecord[]> {
  const rows = await db.selectFrom('engine_jobs').selectAll().where('run_id', '=', runId).orderBy('id').execute();
  return rows.map(toJobRecord);
}

export async function loadJob(db: EngineExecutor, jobId: number): Promise<JobRecord | undefined> {
  const row = await db.selectFrom('engine_jobs').selectAll().where('id', '=', jobId).executeTakeFirst();
  return row ? toJobRecord(row) : undefined;
}

/** A run's supplied values (names, and the sealed values until it ended); undefined when it had none. */
export async function loadSuppliedValues(db: EngineExecutor, runId: number): Promise<RunSuppliedValues | undefined> {
  const row = await db.selectFrom('engine_run_values').selectAll().where('run_id', '=', runId).executeTakeFirst();
  if (row === undefined) return undefined;
  return { secretNames: parseJson<string[]>(row.secret_names), varNames: parseJson<string[]>(row.var_names), sealed: row.sealed };
}
