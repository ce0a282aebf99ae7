import { TASK_AGENT_STATUS_QUERY_VALUES, type TaskAgentStatusQueryValue } from './enums.js';
import { base64Schema, guidSchema } from './schema-parts.js';

// TaskAgentMessage, the answer of the legacy `GET …/messages` and the broker's `GET message`
// (actions/runner src/Sdk/DTWebApi/WebApi/TaskAgentMessage.cs; `IV` is `iv` on the wire), the
// message types the Listener dispatches on (src/Runner.Listener/Runner.cs, RunAsync message loop;
// MessageListener.cs for BrokerMigration) and the poll's query string
// (src/Sdk/DTGenerated/Generated/TaskAgentHttpClientBase.cs GetMessageAsync,
// src/Sdk/WebApi/WebApi/BrokerHttpClient.cs GetRunnerMessageAsync).

/** A message on the legacy queue or the broker. "No message" is an empty 200/204, never `{}`. */
export interface TaskAgentMessage {
  /** Int64; unique per session. The runner echoes it as `lastMessageId` and in the DELETE. */
  readonly messageId: number;
  readonly messageType: string;
  /** The body JSON: base64 AES-CBC ciphertext when `iv` is set on an encrypted legacy session. */
  readonly body: string | null;
  /** base64 IV; present only on encrypted legacy messages (broker messages are never decrypted). */
  readonly iv?: string | null;
}

/** The message types the runner knows (exact spellings of its constants). */
export const MessageTypes = {
  PipelineAgentJobRequest: 'PipelineAgentJobRequest',
  RunnerJobRequest: 'RunnerJobRequest',
  JobCancellation: 'JobCancellation',
  AgentRefresh: 'AgentRefresh',
  RunnerRefresh: 'RunnerRefresh',
  BrokerMigration: 'BrokerMigration',
  ForceTokenRefresh: 'ForceTokenRefresh',
  RunnerShutdown: 'RunnerShutdown',
  RunnerRefreshConfig: 'RunnerRefreshConfig',
  /** Azure Pipelines agent only; the official runner ignores it (see JobMetadataBody). */
  JobMetadataUpdate: 'JobMetadataUpdate',
} as const;
export type MessageType = (typeof MessageTypes)[keyof typeof MessageTypes];

// Runner.cs compares with StringComparison.OrdinalIgnoreCase except for ForceTokenRefresh and
// RunnerRefreshConfig (plain string.Equals); MessageListener.cs compares BrokerMigration with ==.
const EXACT: ReadonlySet<string> = new Set([MessageTypes.ForceTokenRefresh, MessageTypes.RunnerRefreshConfig, MessageTypes.BrokerMigration]);

/** True when the runner would treat a message of type `actual` as `expected`. */
export function messageTypeMatches(actual: string | null | undefined, expected: MessageType): boolean {
  if (actual === null || actual === undefined) return false;
  if (EXACT.has(expected)) return actual === expected;
  return asciiLower(actual) === asciiLower(expected);
}

// Only ASCII letters are folded: String#toLowerCase would also fold e.g. the Kelvin sign to `k`.
function asciiLower(text: string): string {
  return text.replace(/[A-Z]/g, (c) => c.toLowerCase());
}

export const taskAgentMessageSchema = {
  type: 'object',
  required: ['messageId', 'messageType', 'body'],
  properties: {
    messageId: { type: 'integer' },
    messageType: { type: 'string', minLength: 1 },
    body: { type: ['string', 'null'] },
    iv: { anyOf: [base64Schema, { type: 'null' }] },
  },
} as const;

/** Query of the legacy `GET …/messages` and the broker's `GET message` (values as the runner writes them). */
export interface MessagePollQuery {
  readonly sessionId: string;
  /** Legacy only, absent before the first message. */
  readonly lastMessageId?: number;
  readonly status?: TaskAgentStatusQueryValue;
  readonly runnerVersion?: string;
  /** `Linux`, `macOS` or `Windows` (VarUtil.OS). */
  readonly os?: string;
  /** `X86`, `X64`, `ARM` or `ARM64` (VarUtil.OSArchitecture). */
  readonly architecture?: string;
  readonly disableUpdate?: boolean;
}

/**
 * Route schema for the poll's query string. `lastMessageId` and `disableUpdate` rely on the
 * server's type coercion (core/kernel/http/server.ts sets Ajv `coerceTypes`).
 */
export const messagePollQuerySchema = {
  type: 'object',
  required: ['sessionId'],
  properties: {
    sessionId: guidSchema,
    lastMessageId: { type: 'integer' },
    status: { type: 'string', enum: TASK_AGENT_STATUS_QUERY_VALUES },
    runnerVersion: { type: 'string' },
    os: { type: 'string' },
    architecture: { type: 'string' },
    disableUpdate: { type: 'boolean' },
  },
} as const;

/** Query of the legacy acknowledge: `DELETE …/messages/<messageId>?sessionId=<guid>`. */
export interface MessageDeleteQuery {
  readonly sessionId: string;
}

export const messageDeleteQuerySchema = {
  type: 'object',
  required: ['sessionId'],
  properties: { sessionId: guidSchema },
} as const;
