// The listener side of a job over the legacy flow (§2.6-§2.8): what was handed to which runner,
// lock renewal, finishing, and the mapping between the runner's TaskResult and the engine.
export { createJobRequestsStore, type JobRequestRecord, type JobRequestsStore, type NewJobRequest } from './job-requests-store.js';
export { JOB_REQUESTS_PATH, registerJobRequestRoutes, type JobRequestRoutesDeps } from './job-request-routes.js';
export { jobRequestWire } from './job-request-wire.js';
export { completionOf, engineRunnerId, resultOfJob, taskResultName } from './task-result.js';
