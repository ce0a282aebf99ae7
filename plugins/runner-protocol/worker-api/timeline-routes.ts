/**
 * Timelines and their records (§4.2): `PATCH …/timelines/{timelineId}/records` (the Worker's
 * steps, issues and log associations), `GET …/timelines/{timelineId}` (the Listener reads it
 * after a Worker crash), `POST …/timelines` (sub-timelines: the runner never makes them).
 */
import type { FastifyInstance } from 'fastify';
import type { JobRecord } from '../../../core/engine/index.js';
import { InputError } from '../../../core/kernel/index.js';
import { EMPTY_GUID, type JsonObject } from '../../../core/protocol/index.js';
import { vssDate, wrappedList } from '../vss/index.js';
import { timelineJob, type WorkerJob } from './job-access.js';
import { newAnnotations, stepReportOf } from './record-reports.js';
import type { MergedRecord, StoredRecord } from './records-store.js';
import { JOB_REPORT_BODY_LIMIT, workerPath } from './route-paths.js';
import { RecordsBody, TimelineBody, TimelineParams, TimelineQuery, PlanParams, type RecordsBodyType, type TimelineBodyType, type TimelineParamsType, type PlanParamsType } from './schemas.js';
import { normalizeRecord, viewRecord, type RecordJson } from './timeline-record.js';
import { planSecurity, WorkerVssError } from './worker-errors.js';
import type { WorkerRouteDeps } from './worker-deps.js';

export function registerTimelineRoutes(app: FastifyInstance, deps: WorkerRouteDeps): void {
  app.patch<{ Params: TimelineParamsType; Body: RecordsBodyType }>(
    workerPath('records'),
    { schema: { params: TimelineParams, body: RecordsBody }, bodyLimit: JOB_REPORT_BODY_LIMIT },
    async (request) => {
      const worker = await timelineJob(deps.engine, request);
      const incoming = request.body.value.map((raw, index) => normalizeRecord(raw, `records[${index}]`));
      await checkOwnership(deps, worker, incoming);
      const merged = await deps.records.merge(worker.scope, incoming);
      await report(deps, worker, merged);
      return wrappedList(merged.map((record) => record.record));
    },
  );

  app.get<{ Params: TimelineParamsType; Querystring: { includeRecords?: string } }>(
    workerPath('timelines'),
    { schema: { params: TimelineParams, querystring: TimelineQuery } },
    async (request) => {
      const worker = await timelineJob(deps.engine, request);
      const stored = await deps.records.list(worker.scope);
      const records = withJobRecord(worker, stored);
      const changeId = stored.reduce((max, record) => Math.max(max, record.changeId), 0);
      const include = request.query.includeRecords?.toLowerCase() !== 'false';
      return {
        id: worker.scope.timelineId,
        changeId,
        location: null,
        lastChangedBy: EMPTY_GUID,
        lastChangedOn: vssDate(deps.clock.now()),
        ...(include ? { records } : {}),
      };
    },
  );

  app.post<{ Params: PlanParamsType; Body: TimelineBodyType }>(
    workerPath('timelines', { withoutLast: true }),
    { schema: { params: PlanParams, body: TimelineBody }, bodyLimit: JOB_REPORT_BODY_LIMIT },
    async (request) => {
      const worker = await timelineJob(deps.engine, request);
      if (request.body.id.toLowerCase() === worker.scope.timelineId) {
        throw new WorkerVssError('TimelineExistsException', `timeline ${worker.scope.timelineId} exists (the plan's timeline)`, 'timeline_exists');
      }
      throw new InputError(`timeline ${request.body.id} cannot be created: a job reports on its plan's timeline ${worker.scope.timelineId} only`, { code: 'timeline_not_supported' });
    },
  );
}

/**
 * A job writes its own records only: the job record must be its own, and a step's parent its
 * job record or another of its records. (Records are kept per job, so this keeps a job from
 * writing what reads as another job's, not another job's rows.)
 */
async function checkOwnership(deps: WorkerRouteDeps, worker: WorkerJob, incoming: readonly RecordJson[]): Promise<void> {
  const own = worker.scope.jobRecordId;
  const ids = new Set(incoming.map((record) => String(record['id'])));
  for (const record of incoming) {
    const id = String(record['id']);
    const type = typeof record['type'] === 'string' ? record['type'].toLowerCase() : undefined;
    if (type === 'job' && id !== own) throw planSecurity(`record ${id} is another job's record; this token reports for job ${own}`);
    const parent = record['parentId'];
    if (typeof parent !== 'string' || parent === own || ids.has(parent)) continue;
    if ((await deps.records.get(worker.scope, parent)) === undefined) {
      throw planSecurity(`record ${id} has parent ${parent}, which is not a record of job ${own}`);
    }
  }
}

/** Steps and new annotations to the engine; annotations not forwarded are retried on the next update. */
async function report(deps: WorkerRouteDeps, worker: WorkerJob, merged: readonly MergedRecord[]): Promise<void> {
  const views = merged.map((record) => ({ merged: record, view: viewRecord(record.record) }));
  try {
    const steps = views.flatMap(({ view }) => stepReportOf(view) ?? []);
    if (steps.length > 0) await deps.reporting.reportSteps(worker.job.id, worker.runnerId, steps);
    const annotations = views.flatMap(({ merged: record, view }) => newAnnotations(view, record.sentBefore));
    if (annotations.length > 0) await deps.reporting.addAnnotations(worker.job.id, worker.runnerId, annotations);
    const jobRecord = views.find(({ view }) => view.id === worker.scope.jobRecordId)?.view;
    if (jobRecord?.state === 'completed' && jobRecord.result !== undefined) {
      deps.jobRecordCompletion.recordCompleted({ id: worker.job.id, attempt: worker.job.attempt, runnerId: worker.runnerId }, jobRecord.result);
    }
  } catch (error) {
    for (const { merged: record } of views) {
      if (record.issuesSent !== record.sentBefore) await deps.records.unsend(worker.scope, String(record.record['id']), record.sentBefore);
    }
    throw error;
  }
}

/** The job's records for a GET, its own job record first (made up from the job when the Worker sent none yet). */
function withJobRecord(worker: WorkerJob, stored: readonly StoredRecord[]): RecordJson[] {
  const own = worker.scope.jobRecordId;
  const records = stored.map((record) => record.record);
  const jobRecord = records.find((record) => record['id'] === own) ?? jobRecordOf(worker.job, own);
  const rest = records.filter((record) => record['id'] !== own).sort((a, b) => orderOf(a) - orderOf(b));
  return [jobRecord, ...rest];
}

function orderOf(record: RecordJson): number {
  return typeof record['order'] === 'number' ? record['order'] : Number.MAX_SAFE_INTEGER;
}

const RESULTS: Readonly<Record<string, string>> = { success: 'succeeded', failure: 'failed', cancelled: 'canceled', skipped: 'skipped' };

/** The job's record as the server pre-creates it (§11: the runner assumes it exists). */
function jobRecordOf(job: JobRecord, id: string): JsonObject {
  const state = job.status === 'in_progress' ? 'inProgress' : RESULTS[job.status] !== undefined ? 'completed' : 'pending';
  return {
    id,
    parentId: null,
    type: 'Job',
    name: job.name,
    refName: job.jobKey,
    startTime: job.startedAt === null ? null : vssDate(job.startedAt),
    finishTime: job.completedAt === null ? null : vssDate(job.completedAt),
    state,
    result: RESULTS[job.status] ?? null,
    changeId: 0,
    workerName: job.runnerName,
    log: null,
    details: null,
    errorCount: 0,
    warningCount: 0,
    noticeCount: 0,
    issues: [],
    attempt: job.attempt,
  };
}
