/**
 * Logs (§4.3): `POST …/plans/{planId}/logs` creates a TaskLog for a record (`path` is
 * `logs\<recordId>`), `POST …/logs/{logId}` appends a page of it (the raw bytes of one page file:
 * a UTF-8 BOM, then `<timestamp> <text>` lines). Each page is stored once, as one chunk of the
 * job's log in the engine (`reporting.appendLog`), under the step whose record the log's path
 * names (its `order`), or outside any step for a record it does not know. The job record's own
 * log repeats every step line: its pages are the job's raw log instead (job-log.ts), and its
 * job-only lines are stored at `JobCompleted`.
 *
 * A page is recognised by its content digest: the HTTP stack's retry of an upload, or the
 * Listener re-uploading a page, is answered like the first upload and stored nothing. (A page is
 * claimed before it is stored; a claim whose request died is taken over after STALE_PAGE_MS.)
 */
import { createHash } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { NotFoundError } from '../../../core/kernel/index.js';
import { vssDate } from '../vss/index.js';
import { workerJob, type WorkerJob } from './job-access.js';
import { storeJobLogPage } from './job-log.js';
import { storeLogPage } from './log-pages.js';
import type { TaskLogRecord } from './logs-store.js';
import { workerPath } from './route-paths.js';
import { CreateLogBody, LogParams, PlanParams, type CreateLogBodyType, type LogParamsType, type PlanParamsType } from './schemas.js';
import { viewRecord } from './timeline-record.js';
import { planSecurity } from './worker-errors.js';
import type { WorkerRouteDeps } from './worker-deps.js';

/** A page closes at 8 MiB, after the line that crossed it: room for a long last line. */
export const LOG_PAGE_BODY_LIMIT = 64 * 1024 * 1024;

const RECORD_IN_PATH = /(?:^|[\\/])([0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12})$/;

/** The TaskLog the runner reads back (it keeps `id`). */
export function taskLogBody(log: TaskLogRecord) {
  return { id: log.id, location: null, path: log.path, lineCount: log.lineCount, createdOn: vssDate(log.createdAt), lastChangedOn: vssDate(log.updatedAt) };
}

export function registerLogRoutes(app: FastifyInstance, deps: WorkerRouteDeps): void {
  app.post<{ Params: PlanParamsType; Body: CreateLogBodyType }>(
    workerPath('logs', { withoutLast: true }),
    { schema: { params: PlanParams, body: CreateLogBody } },
    async (request) => {
      const worker = await workerJob(deps.engine, request);
      const recordId = RECORD_IN_PATH.exec(request.body.path)?.[1]?.toLowerCase() ?? null;
      return taskLogBody(await deps.logs.create(worker.scope, request.body.path, recordId));
    },
  );

  app.post<{ Params: LogParamsType; Body: Buffer | string }>(
    workerPath('logs'),
    { schema: { params: LogParams }, bodyLimit: LOG_PAGE_BODY_LIMIT },
    async (request) => {
      const worker = await workerJob(deps.engine, request);
      const log = await deps.logs.get(request.params.logId);
      if (log === undefined) throw new NotFoundError(`plan ${worker.scope.planId} has no log ${request.params.logId}`, { code: 'log_not_found' });
      if (log.jobRecordId !== worker.scope.jobRecordId) throw planSecurity(`log ${log.id} belongs to another job than ${worker.scope.jobRecordId}`);
      const bytes = typeof request.body === 'string' ? Buffer.from(request.body, 'utf8') : Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0);
      return taskLogBody(await appendPage(deps, worker, log, bytes));
    },
  );
}

async function appendPage(deps: WorkerRouteDeps, worker: WorkerJob, log: TaskLogRecord, bytes: Buffer): Promise<TaskLogRecord> {
  const digest = createHash('sha256').update(bytes).digest('hex');
  const { scope, runnerId } = worker;
  const stepNumber = await stepOfLog(deps, worker, log);
  if (stepNumber === 'job') return storeJobLogPage(deps, { runId: scope.runId, jobId: scope.jobId, attempt: scope.attempt, runnerId }, log, digest, bytes);
  return storeLogPage(deps, { jobId: scope.jobId, runnerId, stepNumber }, log, digest, bytes);
}

/** The step number of the record a log was created for: `job` for the job record's own log, undefined for an unknown record. */
async function stepOfLog(deps: WorkerRouteDeps, worker: WorkerJob, log: TaskLogRecord): Promise<number | 'job' | undefined> {
  if (log.recordId === null) return undefined;
  if (log.recordId === worker.scope.jobRecordId) return 'job';
  const stored = await deps.records.get(worker.scope, log.recordId);
  if (stored === undefined) return undefined;
  const view = viewRecord(stored.record);
  return view.type?.toLowerCase() === 'job' ? undefined : view.order;
}
