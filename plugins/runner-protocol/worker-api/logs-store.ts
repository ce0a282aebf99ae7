import type { Clock } from '../../../core/ports/index.js';
import { nextRunnerId, type RunnerExecutor } from '../store/index.js';
import type { JobScope } from './records-store.js';
import type { TaskLogsTable, WorkerDb } from './worker-tables.js';

export interface TaskLogRecord {
  readonly id: number;
  readonly planId: string;
  readonly jobRecordId: string;
  readonly jobId: number;
  readonly recordId: string | null;
  readonly path: string;
  readonly lineCount: number;
  readonly createdAt: number;
  readonly updatedAt: number;
}

/** What became of a page claim: store it, it is stored already, or another request is storing it. */
export type PageClaim = 'claimed' | 'stored' | 'busy';

/** A `pending` page older than this is taken over (its request died before finishing). */
export const STALE_PAGE_MS = 2 * 60_000;

export interface LogsStore {
  create(scope: JobScope, path: string, recordId: string | null): Promise<TaskLogRecord>;
  get(id: number): Promise<TaskLogRecord | undefined>;
  /** Claims a page (by content digest) of a log before it is stored. */
  claimPage(logId: number, digest: string): Promise<PageClaim>;
  /** The page is stored: count its lines. */
  pageStored(logId: number, digest: string, lineCount: number): Promise<TaskLogRecord | undefined>;
  /** Storing failed: a resend may try again. */
  releasePage(logId: number, digest: string): Promise<void>;
  /** How many pages of a log are stored, not counting claims whose key starts with `exceptPrefix`. */
  storedPageCount(logId: number, exceptPrefix: string): Promise<number>;
  /** The logs of a job attempt's own record (the job-level log; normally one), oldest first. */
  jobRecordLogs(jobId: number, attempt: number): Promise<TaskLogRecord[]>;
}

function toLog(row: TaskLogsTable): TaskLogRecord {
  return {
    id: Number(row.id),
    planId: row.plan_id,
    jobRecordId: row.job_record_id,
    jobId: Number(row.job_id),
    recordId: row.record_id,
    path: row.path,
    lineCount: Number(row.line_count),
    createdAt: Number(row.created_at),
    updatedAt: Number(row.updated_at),
  };
}

export function createLogsStore(db: WorkerDb, clock: Clock): LogsStore {
  const get = async (id: number) => {
    const row = await db.selectFrom('runner_task_logs').selectAll().where('id', '=', id).executeTakeFirst();
    return row ? toLog(row) : undefined;
  };
  return {
    async create(scope, path, recordId) {
      const now = clock.now();
      return db.transaction().execute(async (tx) => {
        // The counter lives in the plugin's `runner_sequences` (store/), which this schema includes.
        const id = await nextRunnerId(tx as unknown as RunnerExecutor, 'task_logs');
        const row: TaskLogsTable = {
          id,
          plan_id: scope.planId,
          job_record_id: scope.jobRecordId,
          job_id: scope.jobId,
          attempt: scope.attempt,
          record_id: recordId,
          path,
          line_count: 0,
          created_at: now,
          updated_at: now,
        };
        await tx.insertInto('runner_task_logs').values(row).execute();
        return toLog(row);
      });
    },
    get,
    async claimPage(logId, digest) {
      const now = clock.now();
      const inserted = await db
        .insertInto('runner_task_log_pages')
        .values({ log_id: logId, digest, state: 'pending', claimed_at: now, line_count: 0 })
        .onConflict((oc) => oc.columns(['log_id', 'digest']).doNothing())
        .executeTakeFirst();
      if (Number(inserted.numInsertedOrUpdatedRows ?? 0n) > 0) return 'claimed';
      const page = await db.selectFrom('runner_task_log_pages').select(['state', 'claimed_at']).where('log_id', '=', logId).where('digest', '=', digest).executeTakeFirst();
      if (page === undefined) return 'busy';
      if (page.state === 'stored') return 'stored';
      if (Number(page.claimed_at) > now - STALE_PAGE_MS) return 'busy';
      const taken = await db
        .updateTable('runner_task_log_pages')
        .set({ claimed_at: now })
        .where('log_id', '=', logId)
        .where('digest', '=', digest)
        .where('state', '=', 'pending')
        .where('claimed_at', '=', Number(page.claimed_at))
        .executeTakeFirst();
      return Number(taken.numUpdatedRows) > 0 ? 'claimed' : 'busy';
    },
    async pageStored(logId, digest, lineCount) {
      const now = clock.now();
      await db.transaction().execute(async (tx) => {
        await tx.updateTable('runner_task_log_pages').set({ state: 'stored', line_count: lineCount }).where('log_id', '=', logId).where('digest', '=', digest).execute();
        await tx
          .updateTable('runner_task_logs')
          .set((eb) => ({ line_count: eb('line_count', '+', lineCount), updated_at: now }))
          .where('id', '=', logId)
          .execute();
      });
      return get(logId);
    },
    async storedPageCount(logId, exceptPrefix) {
      const row = await db
        .selectFrom('runner_task_log_pages')
        .select((eb) => eb.fn.countAll().as('pages'))
        .where('log_id', '=', logId)
        .where('state', '=', 'stored')
        .where('digest', 'not like', `${exceptPrefix}%`)
        .executeTakeFirst();
      return Number(row?.pages ?? 0);
    },
    async jobRecordLogs(jobId, attempt) {
      const rows = await db.selectFrom('runner_task_logs').selectAll().where('job_id', '=', jobId).where('attempt', '=', attempt).whereRef('record_id', '=', 'job_record_id').orderBy('id').execute();
      return rows.map(toLog);
    },
    async releasePage(logId, digest) {
      await db.deleteFrom('runner_task_log_pages').where('log_id', '=', logId).where('digest', '=', digest).where('state', '=', 'pending').execute();
    },
  };
}
