// The results service (§4.6, run-service mode): Twirp routes under `/twirp/` at the host root
// (job token) for step updates, signed upload URLs and upload metadata; the signed upload route
// (`PUT /_results/uploads/<id>`); what `completejob` carries besides its conclusion (§4.7, §4.8).
export { createResultsService, type ResultsService, type ResultsServiceDeps } from './results-service.js';
export { resultsMigrations } from './results-migrations.js';
export type { CompletedJob, JobResults, JobResultsInput } from './job-results.js';
export { RECEIVER_SERVICE, BLOB_STORAGE_TYPE } from './receiver-routes.js';
export { STEP_UPDATE_SERVICE, WORKFLOW_STEPS_UPDATE_PATH } from './step-update-route.js';
export { RESULTS_UPLOAD_PREFIX, UPLOAD_URL_TTL_SECONDS } from './upload-urls.js';
export { LOG_SIZE_LIMIT, STEP_SUMMARY_SIZE_LIMIT } from './upload-limits.js';
export { STEP_SUMMARY_ATTACHMENT, DIAGNOSTIC_LOGS_ATTACHMENT } from './upload-landing.js';
