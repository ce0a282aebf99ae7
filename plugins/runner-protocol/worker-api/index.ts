// The Worker's side of a job in the legacy flow: timeline records, logs, the live console feed,
// attachments and the JobCompleted plan event, taken with the job access token (auth/job-token.ts)
// and turned into the engine's steps, log chunks, annotations and completion.
export { registerWorkerRoutes } from './register-worker-routes.js';
export { workerApiMigrations } from './worker-migrations.js';
export { JOB_REPORT_BODY_LIMIT, WORKER_LOCATIONS, fastifyPath, workerPath, type WorkerResource } from './route-paths.js';
export type { WorkerApiDeps } from './worker-deps.js';
export { LOG_PAGE_BODY_LIMIT } from './log-routes.js';
// Shared with the results service (results/), which reports the same things over another wire.
export { createLogsStore, type LogsStore, type TaskLogRecord } from './logs-store.js';
export { createAttachmentsStore, type AttachmentsStore, type StoredAttachment } from './attachments-store.js';
export type { JobScope } from './records-store.js';
export { workerDb } from './worker-tables.js';
export { storeLogPage, stripBom, type LogPageTarget } from './log-pages.js';
export { jobOnlyLines, landJobLog, storeJobLogPage, type JobLogTarget } from './job-log.js';
export { stepReportFrom, type StepState } from './record-reports.js';
export { parseRecordState, parseTaskResult } from './wire-enums.js';
