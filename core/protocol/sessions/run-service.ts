import type { TaskResultName, TimelineRecordStateName } from './enums.js';
import { ANNOTATION_LEVELS, annotationLevelSchema, taskResultSchema, timelineRecordStateSchema } from './enums.js';
import { dateTimeSchema, guidSchema } from './schema-parts.js';

// The run service (broker flow), relative to `run_service_url` for `acquirejob` (runner OAuth
// token) and to the SystemVssConnection URL for `renewjob`/`completejob` (job token). Shapes:
// actions/runner src/Sdk/RSWebApi/Contracts/{AcquireJobRequest,RenewJobRequest,RenewJobResponse,
// CompleteJobRequest,StepResult,Annotation,Telemetry,RunServiceError}.cs; behaviour:
// src/Sdk/RSWebApi/RunServiceHttpClient.cs. The `acquirejob` response is the job message
// (AgentJobRequestMessage, core/protocol job-message) and is not modelled here.

/** Body of `POST acquirejob`. Members are omitted when empty (EmitDefaultValue = false). */
export interface AcquireJobRequest {
  /** The RunnerJobRequest's `runner_request_id`. */
  readonly jobMessageId: string;
  /** `Linux`, `macOS` or `Windows`. */
  readonly runnerOS?: string;
  readonly billingOwnerId?: string;
}

export const acquireJobRequestSchema = {
  type: 'object',
  required: ['jobMessageId'],
  properties: {
    jobMessageId: { type: 'string', minLength: 1 },
    runnerOS: { type: 'string' },
    billingOwnerId: { type: 'string' },
  },
} as const;

/** Body of `POST renewjob`. */
export interface RenewJobRequest {
  readonly planId: string;
  readonly jobId: string;
}

export const renewJobRequestSchema = {
  type: 'object',
  required: ['planId', 'jobId'],
  properties: { planId: guidSchema, jobId: guidSchema },
} as const;

/** Answer of `POST renewjob`; the runner logs `lockedUntil` and renews again 60 s later. */
export interface RenewJobResponse {
  readonly lockedUntil: string;
}

export const renewJobResponseSchema = {
  type: 'object',
  required: ['lockedUntil'],
  properties: { lockedUntil: dateTimeSchema },
} as const;

/** A job output (VariableValue): `value` is always written, `isSecret` only when true. */
export interface VariableValue {
  readonly value: string | null;
  readonly isSecret?: boolean;
}

/** A run-service annotation (camelCase members, named explicitly in the DTO). */
export interface RunServiceAnnotation {
  /** A name in any case (`failure`, `FAILURE`) or its code. */
  readonly level?: string | number;
  readonly message?: string;
  readonly title?: string;
  readonly rawDetails?: string;
  readonly path?: string;
  readonly isInfrastructureIssue?: boolean;
  readonly startLine?: number;
  readonly endLine?: number;
  readonly startColumn?: number;
  readonly endColumn?: number;
  readonly stepNumber?: number;
}

/** A step result in `completejob` (snake_case members, named explicitly in the DTO). */
export interface StepResult {
  readonly external_id?: string;
  readonly number?: number | null;
  readonly name?: string;
  readonly action_name?: string;
  readonly ref?: string;
  readonly type?: string;
  readonly status?: TimelineRecordStateName | number | null;
  readonly conclusion?: TaskResultName | number | null;
  readonly started_at?: string | null;
  readonly completed_at?: string | null;
  readonly completed_log_url?: string;
  readonly completed_log_lines?: number | null;
  readonly annotations?: readonly RunServiceAnnotation[];
  readonly is_background?: boolean;
  readonly background_control_type?: string;
  readonly background_control_step_ids?: readonly string[];
}

/** A telemetry entry; `type` is the .NET enum name (`General`, `ActionCommand`, `ConnectivityCheck`). */
export interface RunServiceTelemetry {
  readonly message?: string;
  readonly type?: string;
}

/** Body of `POST completejob`. */
export interface CompleteJobRequest {
  readonly planId: string;
  readonly jobId: string;
  readonly conclusion: TaskResultName | number;
  readonly outputs?: Readonly<Record<string, VariableValue>>;
  readonly stepResults?: readonly StepResult[];
  readonly annotations?: readonly RunServiceAnnotation[];
  readonly telemetry?: readonly RunServiceTelemetry[];
  readonly environmentUrl?: string;
  readonly billingOwnerId?: string;
  /** e.g. `debugger_tunnel_failure` (after 2.336). */
  readonly infrastructureFailureCategory?: string | null;
}

/** `[fF][oO][oO]`: a name in any case, for schemas (Ajv patterns take no flags). */
const anyCase = (name: string): string => [...name].map((c) => (c.toLowerCase() === c.toUpperCase() ? c : `[${c.toLowerCase()}${c.toUpperCase()}]`)).join('');

/**
 * AnnotationLevel as the run service's reader takes it: the name in any case (its casing on the
 * wire is inferred from the serializer, not observed, §4.7) or the code.
 */
export const anyCaseAnnotationLevelSchema = {
  anyOf: [{ type: 'string', pattern: `^(?:${ANNOTATION_LEVELS.map(anyCase).join('|')})$` }, annotationLevelSchema.anyOf[1]],
} as const;

const annotationSchema = {
  type: 'object',
  properties: {
    level: anyCaseAnnotationLevelSchema,
    message: { type: 'string' },
    title: { type: 'string' },
    rawDetails: { type: 'string' },
    path: { type: 'string' },
    isInfrastructureIssue: { type: 'boolean' },
    startLine: { type: 'integer' },
    endLine: { type: 'integer' },
    startColumn: { type: 'integer' },
    endColumn: { type: 'integer' },
    stepNumber: { type: 'integer' },
  },
} as const;

const nullable = <S extends object>(schema: S) => ({ anyOf: [schema, { type: 'null' }] }) as const;

export const stepResultSchema = {
  type: 'object',
  properties: {
    external_id: guidSchema,
    number: { type: ['integer', 'null'] },
    name: { type: 'string' },
    action_name: { type: 'string' },
    ref: { type: 'string' },
    type: { type: 'string' },
    status: nullable(timelineRecordStateSchema),
    conclusion: nullable(taskResultSchema),
    started_at: nullable(dateTimeSchema),
    completed_at: nullable(dateTimeSchema),
    completed_log_url: { type: 'string' },
    completed_log_lines: { type: ['integer', 'null'] },
    annotations: { type: 'array', items: annotationSchema },
    is_background: { type: 'boolean' },
    background_control_type: { type: 'string' },
    background_control_step_ids: { type: 'array', items: { type: 'string' } },
  },
} as const;

export const variableValueSchema = {
  type: 'object',
  properties: { value: { type: ['string', 'null'] }, isSecret: { type: 'boolean' } },
} as const;

export const completeJobRequestSchema = {
  type: 'object',
  required: ['planId', 'jobId', 'conclusion'],
  properties: {
    planId: guidSchema,
    jobId: guidSchema,
    conclusion: taskResultSchema,
    outputs: { type: 'object', additionalProperties: variableValueSchema },
    stepResults: { type: 'array', items: stepResultSchema },
    annotations: { type: 'array', items: annotationSchema },
    telemetry: { type: 'array', items: { type: 'object', properties: { message: { type: 'string' }, type: { type: 'string' } } } },
    environmentUrl: { type: 'string' },
    billingOwnerId: { type: 'string' },
    infrastructureFailureCategory: { type: ['string', 'null'] },
  },
} as const;

/** The only `source` the runner recognises on a run-service error body. */
export const RUN_SERVICE_ERROR_SOURCE = 'actions-run-service';

/**
 * A run-service error body. The runner acts on the body's `statusCode`, not the HTTP status:
 * `acquirejob` 404/409/422 → message skipped and the acquire throttle applied; `renewjob` and
 * `completejob` 404 → renewal/completion stops (TaskOrchestrationJobNotFoundException).
 */
export interface RunServiceErrorBody {
  readonly source: typeof RUN_SERVICE_ERROR_SOURCE;
  readonly statusCode: number;
  readonly errorMessage: string;
}

/** Send with a JSON content type and (by convention) `statusCode` as the HTTP status too. */
export function runServiceError(statusCode: number, message: string): RunServiceErrorBody {
  return { source: RUN_SERVICE_ERROR_SOURCE, statusCode, errorMessage: message };
}

export const runServiceErrorSchema = {
  type: 'object',
  required: ['source', 'statusCode', 'errorMessage'],
  properties: {
    source: { type: 'string', const: RUN_SERVICE_ERROR_SOURCE },
    statusCode: { type: 'integer', minimum: 400, maximum: 599 },
    errorMessage: { type: 'string' },
  },
} as const;
