// runner/worker: one job from its message (the CLI's hidden `worker` subcommand runs runWorker).
export { WORKER_CRASH_EXIT_CODE, WORKER_START_TIMEOUT_MS, runWorker } from './run-worker.js';
export type { RunWorkerOptions } from './run-worker.js';
export { runJob, loadSecrets } from './job-runner.js';
export type { JobRunOptions } from './job-runner.js';
export { JobCancellation } from './cancellation.js';
export type { CancelReason } from './cancellation.js';
export type { WorkerTimings } from './worker-job.js';
export { JobMessageError, LEGACY_MESSAGE_TYPE, RUN_SERVICE_MESSAGE_TYPE, decodeJobMessage, parseJobMessage, variable, variableFlag } from './job-message/index.js';
export type {
  ActionStep,
  ActionsEnvironment,
  BackgroundControlStep,
  EndpointAuthorization,
  JobMessage,
  JobMode,
  JobPlan,
  JobStep,
  JobTimeline,
  JobVariable,
  MaskHint,
  ServiceEndpoint,
} from './job-message/index.js';
