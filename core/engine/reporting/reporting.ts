import type { BlobStore, Clock, Database, Notifier } from '../../ports/index.js';
import type { Logger } from '../../kernel/index.js';
import type { StepRecord } from '../model/records.js';
import { engineDb } from '../store/engine-db.js';
import { inTransaction } from '../store/unit-of-work.js';
import { addAnnotations, type AnnotationInput } from './annotations.js';
import { appendLog, type LogAck, type LogChunkInput } from './append-log.js';
import { readLogs, type LogFilter, type LogLine } from './read-logs.js';
import { putRawLogPart, readRawLog } from './raw-log.js';
import type { ReportingContext } from './reporting-context.js';
import { feedPosition, readFeed, type FeedPage } from './run-feed.js';
import { listSteps, reportSteps, type StepReport } from './steps.js';

export interface ReportingDependencies {
  readonly database: Database;
  readonly notifier: Notifier;
  readonly clock: Clock;
  readonly blobs: BlobStore;
  readonly logger: Logger;
}

/**
 * What runners report while a job runs (steps, logs, annotations), and the reading side of it
 * (logs, the run's feed of events and log lines). Writes are accepted only from the runner that
 * acquired the job (`job_not_found` 404, `job_not_held` 403 otherwise) and are idempotent
 * where a runner may resend: steps are upserted, log chunks carry the runner's number.
 */
export interface Reporting {
  /** Upserts steps; returns how many were written (0 for a repeated report). */
  reportSteps(jobId: number, runnerId: string, steps: readonly StepReport[]): Promise<number>;
  /** The steps of a run's jobs (latest attempt), by job then number. */
  listSteps(runId: number): Promise<StepRecord[]>;
  /** Stores one chunk of log lines (a resend of a stored chunk number is acknowledged again). */
  appendLog(jobId: number, runnerId: string, chunk: LogChunkInput): Promise<LogAck>;
  /** The run's log lines in order, job by job. */
  readLogs(runId: number, filter?: LogFilter): AsyncIterable<LogLine>;
  /**
   * Stores part `part` (1, 2, ...) of the job's raw log (the runner's whole job-level log, which
   * `/logs` and the feed do not show; raw-log.ts); a part stored again replaces itself.
   */
  putRawLogPart(jobId: number, runnerId: string, part: number, body: Buffer): Promise<void>;
  /** A job's raw log, part by part (default: its latest attempt); undefined when it has none. */
  readRawLog(runId: number, jobId: number, attempt?: number): Promise<AsyncIterable<Buffer> | undefined>;
  /** Stores annotations with one `annotation` run event each; returns how many. */
  addAnnotations(jobId: number, runnerId: string, annotations: readonly AnnotationInput[]): Promise<number>;
  /** The run's feed position now (events and log chunks after it are new). */
  feedPosition(runId: number): Promise<number>;
  /** Events and log lines after a feed position, in commit order. */
  readFeed(runId: number, after: number, limit?: number): Promise<FeedPage>;
}

export function createReporting(deps: ReportingDependencies): Reporting {
  const db = engineDb(deps.database);
  const ctx: ReportingContext = {
    db,
    rowLocks: deps.database.capabilities.rowLocks,
    blobs: deps.blobs,
    logger: deps.logger,
    tx: (work) => inTransaction(db, deps.clock, deps.notifier, work),
  };
  return {
    reportSteps: (jobId, runnerId, steps) => reportSteps(ctx, jobId, runnerId, steps),
    listSteps: (runId) => listSteps(db, runId),
    appendLog: (jobId, runnerId, chunk) => appendLog(ctx, jobId, runnerId, chunk),
    readLogs: (runId, filter) => readLogs(ctx, runId, filter),
    putRawLogPart: (jobId, runnerId, part, body) => putRawLogPart(ctx, jobId, runnerId, part, body),
    readRawLog: (runId, jobId, attempt) => readRawLog(ctx, runId, jobId, attempt),
    addAnnotations: (jobId, runnerId, annotations) => addAnnotations(ctx, jobId, runnerId, annotations),
    feedPosition: (runId) => feedPosition(ctx, runId),
    readFeed: (runId, after, limit) => readFeed(ctx, runId, after, limit),
  };
}
