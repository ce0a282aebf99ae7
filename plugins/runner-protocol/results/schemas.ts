/**
 * Request bodies of the results service (§4.6; actions/runner src/Sdk/WebApi/WebApi/Contracts.cs):
 * snake_case members, enums as integers, timestamps as strings (`yyyy-MM-ddTHH:mm:ss.fffZ`).
 * Protobuf's JSON mapping allows more than the runner writes (int64 as a string, enum names),
 * so those are accepted too; members we do not read are allowed, as a newer runner adds some.
 * Backend ids are GUIDs here; whether they are the token's is the route's check (403).
 */
import { guidSchema } from '../../../core/protocol/index.js';

/** RFC 3339 / .NET round-trip time: up to 9 fractional digits, the zone optional (then UTC). */
export const RESULTS_TIME_PATTERN = '^\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}(?:\\.\\d{1,9})?(?:Z|[+-]\\d{2}:\\d{2})?$';

const time = { type: ['string', 'null'], pattern: RESULTS_TIME_PATTERN } as const;
/** int64: a number, or (protobuf JSON) its decimal string; the server's Ajv coerces the latter. */
const count = { type: 'integer', minimum: 0 } as const;

/** Step status codes (`Status` in Contracts.cs) and their protobuf names. */
export const STEP_STATUS_CODES = { STATUS_UNKNOWN: 0, STATUS_IN_PROGRESS: 3, STATUS_PENDING: 5, STATUS_COMPLETED: 6 } as const;
/** Step conclusion codes (`Conclusion` in Contracts.cs) and their protobuf names. */
export const STEP_CONCLUSION_CODES = { CONCLUSION_UNKNOWN: 0, CONCLUSION_SUCCESS: 2, CONCLUSION_FAILURE: 3, CONCLUSION_CANCELLED: 4, CONCLUSION_SKIPPED: 7 } as const;

const enumOf = (codes: Readonly<Record<string, number>>) => ({ anyOf: [{ type: 'integer', enum: Object.values(codes) }, { type: 'string', enum: Object.keys(codes) }] }) as const;

const jobIds = {
  workflow_run_backend_id: guidSchema,
  workflow_job_run_backend_id: guidSchema,
} as const;

const JOB_IDS = ['workflow_run_backend_id', 'workflow_job_run_backend_id'] as const;

/** `GetJobLogsSignedBlobURL`, `GetJobDiagLogsSignedBlobURL`. */
export const JobBlobUrlBody = { type: 'object', required: [...JOB_IDS], properties: jobIds } as const;

/** `GetStepLogsSignedBlobURL`, `GetStepSummarySignedBlobURL`. */
export const StepBlobUrlBody = { type: 'object', required: [...JOB_IDS, 'step_backend_id'], properties: { ...jobIds, step_backend_id: guidSchema } } as const;

/** `CreateStepLogsMetadata`. */
export const StepLogsMetadataBody = {
  type: 'object',
  required: [...JOB_IDS, 'step_backend_id'],
  properties: { ...jobIds, step_backend_id: guidSchema, uploaded_at: time, line_count: count },
} as const;

/** `CreateJobLogsMetadata`. */
export const JobLogsMetadataBody = { type: 'object', required: [...JOB_IDS], properties: { ...jobIds, uploaded_at: time, line_count: count } } as const;

/** `CreateStepSummaryMetadata`. */
export const StepSummaryMetadataBody = {
  type: 'object',
  required: [...JOB_IDS, 'step_backend_id', 'size'],
  properties: { ...jobIds, step_backend_id: guidSchema, size: count, uploaded_at: time },
} as const;

const step = {
  type: 'object',
  required: ['external_id', 'number', 'status'],
  properties: {
    external_id: guidSchema,
    number: { type: 'integer', minimum: 0 },
    name: { type: ['string', 'null'] },
    status: enumOf(STEP_STATUS_CODES),
    conclusion: enumOf(STEP_CONCLUSION_CODES),
    started_at: time,
    completed_at: time,
  },
} as const;

/** `WorkflowStepsUpdate`: the steps of one job (the runner groups its Task records by parent). */
export const StepsUpdateBody = {
  type: 'object',
  required: [...JOB_IDS, 'steps', 'change_order'],
  properties: { ...jobIds, change_order: count, steps: { type: 'array', maxItems: 1000, items: step } },
} as const;

type StatusName = keyof typeof STEP_STATUS_CODES;
type ConclusionName = keyof typeof STEP_CONCLUSION_CODES;

export interface BackendIdsBody {
  readonly workflow_run_backend_id: string;
  readonly workflow_job_run_backend_id: string;
}

export interface StepBackendIdBody extends BackendIdsBody {
  readonly step_backend_id: string;
}

export interface LogsMetadataBody extends BackendIdsBody {
  readonly step_backend_id?: string;
  readonly uploaded_at?: string | null;
  readonly line_count?: number;
}

export interface SummaryMetadataBody extends StepBackendIdBody {
  readonly size: number;
  readonly uploaded_at?: string | null;
}

export interface ResultsStep {
  readonly external_id: string;
  readonly number: number;
  readonly name?: string | null;
  readonly status: number | StatusName;
  readonly conclusion?: number | ConclusionName;
  readonly started_at?: string | null;
  readonly completed_at?: string | null;
}

export interface StepsUpdate extends BackendIdsBody {
  readonly change_order: number;
  readonly steps: readonly ResultsStep[];
}
