/**
 * `results.services.receiver.Receiver` (§4.6), Twirp over JSON under `/twirp/` at the host root:
 * signed upload URLs for a step's log, the job's log, a step summary and the diagnostic logs, and
 * the metadata calls that say an upload is done (then it lands: upload-landing.ts).
 *
 * The runner asks for a URL before every block of a log and gets the same blob each time (one
 * per job, kind and step). Metadata `ok` must be `true` or the runner raises an error. A metadata
 * call for a log nothing was uploaded for is `not_found`; a repeat of a finished one is `ok`.
 */
import { TwirpError } from '../../../core/kernel/index.js';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Engine } from '../../../core/engine/index.js';
import type { Logger } from '../../../core/kernel/index.js';
import { resultsJob, type ResultsJob } from './results-job.js';
import { resultsTokenOf } from './results-token.js';
import {
  JobBlobUrlBody,
  JobLogsMetadataBody,
  StepBlobUrlBody,
  StepLogsMetadataBody,
  StepSummaryMetadataBody,
  type BackendIdsBody,
  type LogsMetadataBody,
  type StepBackendIdBody,
  type SummaryMetadataBody,
} from './schemas.js';
import type { StepsStore } from './steps-store.js';
import type { Landing } from './upload-landing.js';
import { STEP_SUMMARY_SIZE_LIMIT, UPLOAD_LIMITS } from './upload-limits.js';
import type { UploadUrls } from './upload-urls.js';
import type { UploadKind, UploadRecord, UploadsStore } from './uploads-store.js';

export const RECEIVER_SERVICE = 'results.services.receiver.Receiver';
const receiver = (method: string) => `/twirp/${RECEIVER_SERVICE}/${method}`;

/** Our URLs are no Azure blobs: the runner then sends plain PUTs (§4.6). */
export const BLOB_STORAGE_TYPE = 'BLOB_STORAGE_TYPE_UNSPECIFIED';

export interface ReceiverDeps {
  readonly engine: Engine;
  readonly steps: StepsStore;
  readonly uploads: UploadsStore;
  readonly urls: UploadUrls;
  readonly landing: Landing;
  readonly logger: Logger;
}

const ok = { ok: true } as const;

export function registerReceiverRoutes(app: FastifyInstance, deps: ReceiverDeps): void {
  const jobOf = (request: FastifyRequest<{ Body: BackendIdsBody }>) => resultsJob(deps.engine, resultsTokenOf(request), request.body);
  /** A URL for the job's upload of a kind (made on first request); refused once the upload is done. */
  const urlFor = async (job: ResultsJob, kind: UploadKind, stepId: string): Promise<string> => {
    const upload = await deps.uploads.ensure(job.scope, kind, stepId);
    if (upload.completedAt !== undefined) throw new TwirpError('failed_precondition', `${describe(upload)} is complete; it takes no more uploads`);
    return deps.urls.urlOf(upload.id);
  };
  /** The upload a metadata call completes. */
  const uploaded = async (job: ResultsJob, kind: UploadKind, stepId: string): Promise<UploadRecord> => {
    const upload = await deps.uploads.find(job.scope, kind, stepId);
    if (upload === undefined || upload.blobType === undefined) {
      throw new TwirpError('not_found', `nothing was uploaded for ${describeKind(kind, stepId)}; get its signed URL and PUT the blob first`);
    }
    return upload;
  };

  app.post<{ Body: StepBackendIdBody }>(receiver('GetStepLogsSignedBlobURL'), { schema: { body: StepBlobUrlBody } }, async (request) => {
    const job = await jobOf(request);
    const url = await urlFor(job, 'step-log', request.body.step_backend_id.toLowerCase());
    return { logs_url: url, blob_storage_type: BLOB_STORAGE_TYPE, soft_size_limit: UPLOAD_LIMITS['step-log'].total };
  });

  app.post<{ Body: LogsMetadataBody & StepBackendIdBody }>(receiver('CreateStepLogsMetadata'), { schema: { body: StepLogsMetadataBody } }, async (request) => {
    const job = await jobOf(request);
    const stepId = request.body.step_backend_id.toLowerCase();
    const upload = await uploaded(job, 'step-log', stepId);
    // Steps are known from WorkflowStepsUpdate, sent as a step starts; a log of a step never
    // reported keeps its lines, outside any step.
    const stepNumber = await deps.steps.numberOf(job.scope, stepId);
    if (stepNumber === undefined) deps.logger.warn({ jobId: job.job.id, stepId }, 'a step log arrived for a step no WorkflowStepsUpdate named; stored outside any step');
    checkLines(deps.logger, job, upload, request.body, await deps.landing.log(upload, job.runnerId, stepNumber));
    return ok;
  });

  app.post<{ Body: BackendIdsBody }>(receiver('GetJobLogsSignedBlobURL'), { schema: { body: JobBlobUrlBody } }, async (request) => {
    const job = await jobOf(request);
    return { logs_url: await urlFor(job, 'job-log', ''), blob_storage_type: BLOB_STORAGE_TYPE };
  });

  app.post<{ Body: LogsMetadataBody }>(receiver('CreateJobLogsMetadata'), { schema: { body: JobLogsMetadataBody } }, async (request) => {
    const job = await jobOf(request);
    const upload = await uploaded(job, 'job-log', '');
    checkLines(deps.logger, job, upload, request.body, await deps.landing.log(upload, job.runnerId, undefined));
    return ok;
  });

  app.post<{ Body: StepBackendIdBody }>(receiver('GetStepSummarySignedBlobURL'), { schema: { body: StepBlobUrlBody } }, async (request) => {
    const job = await jobOf(request);
    const url = await urlFor(job, 'step-summary', request.body.step_backend_id.toLowerCase());
    return { summary_url: url, soft_size_limit: STEP_SUMMARY_SIZE_LIMIT, blob_storage_type: BLOB_STORAGE_TYPE };
  });

  app.post<{ Body: SummaryMetadataBody }>(receiver('CreateStepSummaryMetadata'), { schema: { body: StepSummaryMetadataBody } }, async (request) => {
    const job = await jobOf(request);
    await deps.landing.summary(await uploaded(job, 'step-summary', request.body.step_backend_id.toLowerCase()), request.body.size);
    return ok;
  });

  // The diagnostic logs have no metadata call: they land when their one PUT is done (upload-route.ts).
  app.post<{ Body: BackendIdsBody }>(receiver('GetJobDiagLogsSignedBlobURL'), { schema: { body: JobBlobUrlBody } }, async (request) => {
    const job = await jobOf(request);
    return { diag_logs_url: await urlFor(job, 'diag-logs', ''), blob_storage_type: BLOB_STORAGE_TYPE };
  });
}

function describeKind(kind: UploadKind, stepId: string): string {
  return stepId === '' ? `the job's ${kind}` : `the ${kind} of step ${stepId}`;
}

function describe(upload: UploadRecord): string {
  return describeKind(upload.kind, upload.stepId);
}

/** The runner counts its lines as it writes them; a difference means lines went missing on the way. */
function checkLines(logger: Logger, job: ResultsJob, upload: UploadRecord, body: LogsMetadataBody, stored: number): void {
  if (body.line_count !== undefined && body.line_count !== stored) {
    logger.warn({ jobId: job.job.id, upload: upload.id, reported: body.line_count, stored }, `${describe(upload)} has ${stored} lines stored, the runner counted ${body.line_count}`);
  }
}
