/**
 * Row types of the results service's tables (migration `0004_results_service`). Times are epoch
 * milliseconds. Everything is keyed by the job's GUID (`job_record_id`), which is distinct per
 * job attempt, so no job reaches another's rows.
 */
import type { Kysely, Transaction } from 'kysely';
import type { Database } from '../../../core/ports/index.js';

/** A job's steps as `WorkflowStepsUpdate` last set them; the newest `change_order` wins. */
export type ResultsStepsTable = {
  job_record_id: string;
  external_id: string;
  job_id: number;
  attempt: number;
  number: number;
  name: string | null;
  /** TimelineRecordState name (`pending`, `inProgress`, `completed`), null when unknown. */
  state: string | null;
  /** TaskResult name (`succeeded`, `failed`, ...), null when unknown. */
  result: string | null;
  started_at: number | null;
  completed_at: number | null;
  change_order: number;
  updated_at: number;
};

/**
 * One blob a job uploads through signed URLs: a step's log, the job's log, a step summary, the
 * diagnostic logs. One per (job, kind, step): the runner asks for a URL before each block and
 * must get the same blob every time.
 */
export type ResultsUploadsTable = {
  id: string;
  job_record_id: string;
  kind: string;
  /** The step's record id; '' for the job's own uploads. */
  step_id: string;
  plan_id: string;
  timeline_id: string;
  run_id: number;
  job_id: number;
  attempt: number;
  /** null until the first PUT; then `append` (created, appended, sealed) or `block` (one PUT). */
  blob_type: string | null;
  sealed: number;
  block_count: number;
  bytes: number;
  /** The TaskLog (worker-api logs store) a log's blocks are stored under as pages. */
  log_id: number | null;
  /** When the upload was turned into what it stands for (log chunks, an attachment): no more writes. */
  completed_at: number | null;
  created_at: number;
  updated_at: number;
};

/** The blocks of an upload, in order, each its own blob. */
export type ResultsBlocksTable = {
  upload_id: string;
  number: number;
  blob_key: string;
  bytes: number;
};

/** Once-only reports (`completejob` annotations): claimed, then stored; a failed claim is released. */
export type ResultsClaimsTable = {
  job_record_id: string;
  name: string;
  state: string;
  claimed_at: number;
};

export type ResultsTables = {
  runner_results_steps: ResultsStepsTable;
  runner_results_uploads: ResultsUploadsTable;
  runner_results_blocks: ResultsBlocksTable;
  runner_results_claims: ResultsClaimsTable;
};

export type ResultsDb = Kysely<ResultsTables>;
export type ResultsExecutor = ResultsDb | Transaction<ResultsTables>;

export function resultsDb(database: Database): ResultsDb {
  return database.kysely.withTables<ResultsTables>() as unknown as ResultsDb;
}
