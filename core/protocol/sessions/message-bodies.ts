import { baseUrlSchema, guidSchema, timeSpanSchema } from './schema-parts.js';

// The bodies carried in TaskAgentMessage.body (a JSON string), one per message type. Member names
// are as the runner reads them: camelCase for the VSS DTOs, snake_case where the DTO names them
// so. Sources (actions/runner): src/Sdk/DTWebApi/WebApi/JobCancelMessage.cs,
// AgentRefreshMessage.cs, RunnerRefreshMessage.cs, BrokerMigrationMessage.cs,
// RunnerRefreshConfigMessage.cs; src/Sdk/DTPipelines/Pipelines/RunnerShutdownMessage.cs;
// src/Runner.Listener/RunnerJobRequestRef.cs. `PipelineAgentJobRequest` carries the job message
// itself (core/protocol job-message), `ForceTokenRefresh` a body the runner ignores.

/** `JobCancellation`: cancel the running job with this id (unknown ids are ignored). */
export interface JobCancellationBody {
  readonly jobId: string;
  /** TimeSpan (sessions/ formatTimeSpan); the runner kills the job max(timeout, 60 s) − 15 s after the cancel. */
  readonly timeout: string;
}

/** `AgentRefresh`: legacy self-update to `targetVersion` (svc never sends it: runners are pinned). */
export interface AgentRefreshBody {
  readonly agentId: number;
  readonly timeout: string;
  readonly targetVersion: string;
}

/** `RunnerRefresh`: self-update from a download URL (snake_case members). */
export interface RunnerRefreshBody {
  readonly target_version: string;
  readonly download_url: string;
  readonly sha256_checksum: string;
  readonly os: string;
}

/** `BrokerMigration`: poll the broker at `brokerBaseUrl` from now on (§2.5.4). */
export interface BrokerMigrationBody {
  /** Must end with `/`: the runner resolves `message` relative to it. */
  readonly brokerBaseUrl: string;
}

/** `RunnerShutdown`: exit 0 at once, deleting neither the message nor the session. */
export interface RunnerShutdownBody {
  readonly reason: string;
}

/** `RunnerRefreshConfig`: re-fetch `.runner`/`.credentials` (note the upper-case `URL`). */
export interface RunnerRefreshConfigBody {
  readonly runnerQualifiedId: string;
  readonly configType: string;
  readonly serviceType: string;
  readonly configRefreshURL: string;
}

/** `RunnerJobRequest` (broker flow): a reference to a job the runner acquires from the run service. */
export interface RunnerJobRequestBody {
  readonly id?: string;
  /** Echoed as `jobMessageId` to `acquirejob` and as `runnerRequestId` to `acknowledge`. */
  readonly runner_request_id: string;
  /** When true the runner POSTs `acknowledge` before acquiring. */
  readonly should_acknowledge?: boolean;
  /** Base URL of the run service (must end with `/`); absent: `GET runnermessages/<id>` on the legacy server. */
  readonly run_service_url?: string;
  readonly billing_owner_id?: string;
}

/**
 * The Azure Pipelines agent's job-metadata message. actions/runner has no handler for it
 * (Runner.cs logs "unsupported message type" and deletes it): modelled for completeness, never
 * sent to the official runner. The type string (`JobMetadataUpdate`) is taken from the agent's
 * JobMetadataEvent name and was not confirmed against its SDK.
 */
export interface JobMetadataBody {
  readonly jobId?: string;
  /** The agent's console-line posting interval in milliseconds. */
  readonly postLinesFrequencyMillis?: number;
}

export const jobCancellationBodySchema = {
  type: 'object',
  required: ['jobId', 'timeout'],
  properties: { jobId: guidSchema, timeout: timeSpanSchema },
} as const;

export const agentRefreshBodySchema = {
  type: 'object',
  required: ['agentId', 'targetVersion'],
  properties: { agentId: { type: 'integer', minimum: 0 }, timeout: timeSpanSchema, targetVersion: { type: 'string', minLength: 1 } },
} as const;

export const runnerRefreshBodySchema = {
  type: 'object',
  required: ['target_version', 'download_url'],
  properties: {
    target_version: { type: 'string', minLength: 1 },
    download_url: { type: 'string', pattern: '^https?://' },
    sha256_checksum: { type: 'string', pattern: '^[0-9A-Fa-f]{64}$' },
    os: { type: 'string' },
  },
} as const;

export const brokerMigrationBodySchema = {
  type: 'object',
  required: ['brokerBaseUrl'],
  properties: { brokerBaseUrl: baseUrlSchema },
} as const;

export const runnerShutdownBodySchema = {
  type: 'object',
  properties: { reason: { type: ['string', 'null'] } },
} as const;

export const runnerRefreshConfigBodySchema = {
  type: 'object',
  required: ['runnerQualifiedId', 'configType', 'serviceType', 'configRefreshURL'],
  properties: {
    runnerQualifiedId: { type: 'string' },
    configType: { type: 'string' },
    serviceType: { type: 'string' },
    configRefreshURL: { type: 'string' },
  },
} as const;

export const runnerJobRequestBodySchema = {
  type: 'object',
  required: ['runner_request_id'],
  properties: {
    id: { type: 'string' },
    runner_request_id: { type: 'string', minLength: 1 },
    should_acknowledge: { type: 'boolean' },
    run_service_url: { anyOf: [baseUrlSchema, { type: 'string', maxLength: 0 }, { type: 'null' }] },
    billing_owner_id: { type: 'string' },
  },
} as const;

export const jobMetadataBodySchema = {
  type: 'object',
  properties: { jobId: guidSchema, postLinesFrequencyMillis: { type: 'integer', minimum: 0 } },
} as const;
