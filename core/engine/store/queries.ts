import type { JobRecord, RunRecord } from '../model/records.js';
import type { EngineExecutor } from './engine-db.js';
import { toJobRecord, toRunRecord } from './mappers.js';

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
