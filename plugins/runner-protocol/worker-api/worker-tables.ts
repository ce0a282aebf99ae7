/**
 * Row types of the Worker's tables (migration `0002_worker_api`). Times are epoch milliseconds,
 * JSON is text. A job's records, logs and attachments are keyed by the job's GUID (`jobIdFor`),
 * which is distinct per job attempt: jobs of one run share its plan and timeline, and each
 * writes only under its own GUID, so no job can touch another's rows.
 */
import type { Kysely } from 'kysely';
import type { Database } from '../../../core/ports/index.js';
import type { RunnerTables } from '../store/index.js';

export type TimelineRecordsTable = {
  timeline_id: string;
  job_record_id: string;
  record_id: string;
  job_id: number;
  attempt: number;
  /** The merged record (timeline-record.ts). */
  record: string;
  /** How many of the record's issues became annotations. */
  issues_sent: number;
  change_id: number;
  updated_at: number;
};

/** Logs created with `POST …/logs` (TaskLog). */
export type TaskLogsTable = {
  id: number;
  plan_id: string;
  job_record_id: string;
  job_id: number;
  attempt: number;
  /** The record the log's `path` (`logs\<recordId>`) names, if it names one. */
  record_id: string | null;
  path: string;
  line_count: number;
  created_at: number;
  updated_at: number;
};

/** Pages appended to a log, by content digest: a resent page is recognised and not stored twice. */
export type TaskLogPagesTable = {
  log_id: number;
  digest: string;
  /** `pending` while being stored, then `stored`. */
  state: string;
  claimed_at: number;
  line_count: number;
};

/** Attachments (`PUT …/attachments/{type}/{name}`): step summaries and diagnostics, bytes in the blob store. */
export type TaskAttachmentsTable = {
  timeline_id: string;
  job_record_id: string;
  record_id: string;
  type: string;
  name: string;
  job_id: number;
  run_id: number;
  blob_key: string;
  bytes: number;
  created_at: number;
};

export type WorkerTables = RunnerTables & {
  runner_timeline_records: TimelineRecordsTable;
  runner_task_logs: TaskLogsTable;
  runner_task_log_pages: TaskLogPagesTable;
  runner_task_attachments: TaskAttachmentsTable;
};

export type WorkerDb = Kysely<WorkerTables>;

export function workerDb(database: Database): WorkerDb {
  return database.kysely.withTables<WorkerTables>() as unknown as WorkerDb;
}
