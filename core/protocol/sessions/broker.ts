import { TASK_AGENT_STATUS_QUERY_VALUES, type TaskAgentStatusQueryValue } from './enums.js';
import type { TaskAgentMessage } from './task-agent-message.js';
import type { TaskAgentSessionRequest, TaskAgentSessionResponse } from './task-agent-session.js';
import { guidSchema } from './schema-parts.js';

// The broker (v2) listener surface, relative to `serverUrlV2` (which ends with `/`):
// `POST session` / `DELETE session` (a TaskAgentSession, as in the legacy flow), `GET message`
// (a TaskAgentMessage, never decrypted, same query as the legacy poll), `POST acknowledge`.
// Source: actions/runner src/Sdk/WebApi/WebApi/BrokerHttpClient.cs; error body
// src/Sdk/RSWebApi/Contracts/BrokerError.cs, BrokerErrorKind.cs.

/** The broker session request is the legacy TaskAgentSession request. */
export type BrokerSessionRequest = TaskAgentSessionRequest;
/** The broker session response: the runner reads only `sessionId` (it ignores any key). */
export type BrokerSessionResponse = TaskAgentSessionResponse;
/** A broker message: a TaskAgentMessage whose body is plain JSON. */
export type BrokerMessage = TaskAgentMessage;

/**
 * `POST session` failures the runner recognises by HTTP status alone (CreateSessionAsync reads no
 * body): 403 is AccessDeniedException (fatal), 409 TaskAgentSessionConflictException (retried for
 * up to 4 minutes, then exit code 5); anything else is retried every 30 s.
 */
export const BROKER_SESSION_STATUS = { accessDenied: 403, conflict: 409 } as const;

/** Body of `POST acknowledge` (a string dictionary in the runner; its key stays as written). */
export interface AcknowledgeRequest {
  readonly runnerRequestId: string;
}

export const acknowledgeRequestSchema = {
  type: 'object',
  required: ['runnerRequestId'],
  properties: { runnerRequestId: { type: 'string', minLength: 1 } },
} as const;

/** Query of `POST acknowledge` (no `disableUpdate`, unlike the poll). */
export interface AcknowledgeQuery {
  readonly sessionId: string;
  readonly status?: TaskAgentStatusQueryValue;
  readonly runnerVersion?: string;
  readonly os?: string;
  readonly architecture?: string;
}

export const acknowledgeQuerySchema = {
  type: 'object',
  required: ['sessionId'],
  properties: {
    sessionId: guidSchema,
    status: { type: 'string', enum: TASK_AGENT_STATUS_QUERY_VALUES },
    runnerVersion: { type: 'string' },
    os: { type: 'string' },
    architecture: { type: 'string' },
  },
} as const;

/**
 * The error kinds the runner acts on (compared exactly, case-sensitive):
 * - `RunnerNotFound` (poll, acknowledge): 2.336+ deletes its local config and exits;
 * - `RunnerVersionTooOld` (poll): "version deprecated" exit (AccessDeniedException, errorCode 1);
 * - `HostedRunnerDeprovisioned` (poll): exit 0;
 * - `RunnerSessionInvalid` (poll): creates a new session and continues;
 * - `AcknowledgeJobNotFound` (acknowledge): an ephemeral runner exits 0, others ignore it.
 */
export const BrokerErrorKinds = {
  AcknowledgeJobNotFound: 'AcknowledgeJobNotFound',
  RunnerNotFound: 'RunnerNotFound',
  RunnerVersionTooOld: 'RunnerVersionTooOld',
  HostedRunnerDeprovisioned: 'HostedRunnerDeprovisioned',
  RunnerSessionInvalid: 'RunnerSessionInvalid',
} as const;
export type BrokerErrorKind = (typeof BrokerErrorKinds)[keyof typeof BrokerErrorKinds];

/** The only `source` the runner recognises on a broker error body. */
export const BROKER_ERROR_SOURCE = 'actions-broker-listener';

/** A broker error body; send it with a JSON content type and `statusCode` as the HTTP status. */
export interface BrokerErrorBody {
  readonly source: typeof BROKER_ERROR_SOURCE;
  readonly errorKind: BrokerErrorKind;
  readonly statusCode: number;
  readonly errorMessage: string;
}

/**
 * HTTP statuses we answer each kind with. The runner reads only the body's `source` and
 * `errorKind` (any non-2xx status works) — except 401, which its raw client takes as "refresh the
 * token", so these are our choice, kept away from 401.
 */
export const BROKER_ERROR_STATUS: Readonly<Record<BrokerErrorKind, number>> = {
  AcknowledgeJobNotFound: 404,
  RunnerNotFound: 404,
  RunnerVersionTooOld: 403,
  HostedRunnerDeprovisioned: 410,
  RunnerSessionInvalid: 409,
};

export function brokerError(kind: BrokerErrorKind, message: string, statusCode: number = BROKER_ERROR_STATUS[kind]): BrokerErrorBody {
  return { source: BROKER_ERROR_SOURCE, errorKind: kind, statusCode, errorMessage: message };
}

export const brokerErrorSchema = {
  type: 'object',
  required: ['source', 'errorKind', 'statusCode', 'errorMessage'],
  properties: {
    source: { type: 'string', const: BROKER_ERROR_SOURCE },
    errorKind: { type: 'string', enum: Object.values(BrokerErrorKinds) },
    statusCode: { type: 'integer', minimum: 400, maximum: 599 },
    errorMessage: { type: 'string' },
  },
} as const;
