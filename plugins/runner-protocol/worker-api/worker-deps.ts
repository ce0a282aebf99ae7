import type { Engine, Reporting } from '../../../core/engine/index.js';
import type { Logger } from '../../../core/kernel/index.js';
import type { BlobStore, Clock, Database } from '../../../core/ports/index.js';
import type { JobTokens } from '../auth/index.js';
import { createAttachmentsStore, type AttachmentsStore } from './attachments-store.js';
import { createJobRecordCompletion, type JobRecordCompletion } from './job-record-completion.js';
import { landJobLogs } from './job-log.js';
import { createLogsStore, type LogsStore } from './logs-store.js';
import { createRecordsStore, type RecordsStore } from './records-store.js';
import { workerDb } from './worker-tables.js';

/** What the plugin gives the Worker's routes. */
export interface WorkerApiDeps {
  readonly engine: Engine;
  readonly reporting: Reporting;
  readonly database: Database;
  readonly blobs: BlobStore;
  readonly clock: Clock;
  readonly jobTokens: JobTokens;
  /** How long a completed job record waits for the Worker's `JobCompleted` (job-record-completion.ts); tests shorten it. */
  readonly jobRecordGraceMs?: number;
}

/** What the routes share, built once per route group. */
export interface WorkerRouteDeps {
  readonly engine: Engine;
  readonly reporting: Reporting;
  readonly clock: Clock;
  readonly records: RecordsStore;
  readonly logs: LogsStore;
  readonly attachments: AttachmentsStore;
  readonly jobRecordCompletion: JobRecordCompletion;
}

export function createWorkerRouteDeps(deps: WorkerApiDeps, logger: Pick<Logger, 'warn'>): WorkerRouteDeps {
  const db = workerDb(deps.database);
  const logs = createLogsStore(db, deps.clock);
  const landAtCompletion = (job: { readonly runId: number; readonly id: number; readonly attempt: number; readonly runnerId: string }) =>
    landJobLogs({ logs, reporting: deps.reporting }, { runId: job.runId, jobId: job.id, attempt: job.attempt, runnerId: job.runnerId }, logger);
  return {
    engine: deps.engine,
    reporting: deps.reporting,
    clock: deps.clock,
    records: createRecordsStore(db, deps.clock, deps.database.capabilities.rowLocks),
    logs,
    attachments: createAttachmentsStore(db, deps.blobs, deps.clock),
    jobRecordCompletion: createJobRecordCompletion(deps.engine, deps.jobRecordGraceMs, undefined, landAtCompletion),
  };
}
