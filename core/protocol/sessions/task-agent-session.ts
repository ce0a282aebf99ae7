import type { TaskAgentStatusName } from './enums.js';
import { taskAgentStatusSchema } from './enums.js';
import type { BrokerMigrationBody } from './message-bodies.js';
import { brokerMigrationBodySchema } from './message-bodies.js';
import { base64Schema, guidSchema } from './schema-parts.js';

// TaskAgentSession, the body of the legacy `POST …/sessions` and the broker's `POST session`,
// both ways. Shapes: actions/runner src/Sdk/DTWebApi/WebApi/TaskAgentSession.cs,
// TaskAgentSessionKey.cs, TaskAgentReference.cs; what the runner fills in:
// src/Runner.Listener/MessageListener.cs, CreateSessionAsync (agent id, name, version,
// osDescription; ownerName "<machine> (PID: <pid>)"; sessionId the empty GUID).

/** TaskAgentReference: the runner in a session request/response (camelCase on the wire). */
export interface TaskAgentReference {
  /** The runner id from registration (`.runner` agentId; a ulong in .NET). */
  readonly id: number;
  readonly name: string;
  readonly version: string;
  readonly osDescription?: string | null;
  readonly enabled?: boolean | null;
  readonly ephemeral?: boolean | null;
  readonly disableUpdate?: boolean | null;
  /** The runner sends 0 (unset); names are camelCase. */
  readonly status?: TaskAgentStatusName | number;
  readonly provisioningState?: string | null;
  readonly accessPoint?: string | null;
}

/**
 * TaskAgentSessionKey: the session's AES key. `encrypted: true` means `value` is RSA-OAEP-wrapped
 * with the runner's public key (crypto/ wrapSessionKey); false or absent, the raw key.
 */
export interface TaskAgentSessionKey {
  readonly encrypted?: boolean;
  /** base64. */
  readonly value?: string | null;
}

/** The session request the runner sends (legacy and broker alike). */
export interface TaskAgentSessionRequest {
  /** The empty GUID: the server assigns the id. */
  readonly sessionId?: string;
  readonly ownerName: string | null;
  readonly agent: TaskAgentReference;
  /** false from the runner; the server decides in its response. */
  readonly useFipsEncryption?: boolean;
  readonly encryptionKey?: TaskAgentSessionKey | null;
}

/** The session response. The broker flow reads only `sessionId` (and never decrypts). */
export interface TaskAgentSessionResponse {
  readonly sessionId: string;
  readonly ownerName: string | null;
  readonly agent: TaskAgentReference;
  /** Absent or with an empty value: messages are plain JSON. */
  readonly encryptionKey?: TaskAgentSessionKey;
  /** Selects the OAEP hash the runner unwraps `encryptionKey` with: true SHA-256, false SHA-1. */
  readonly useFipsEncryption: boolean;
  readonly brokerMigrationMessage?: BrokerMigrationBody;
}

export const taskAgentReferenceSchema = {
  type: 'object',
  required: ['id', 'name', 'version'],
  properties: {
    id: { type: 'integer', minimum: 0 },
    name: { type: 'string', minLength: 1 },
    version: { type: 'string', minLength: 1 },
    osDescription: { type: ['string', 'null'] },
    enabled: { type: ['boolean', 'null'] },
    ephemeral: { type: ['boolean', 'null'] },
    disableUpdate: { type: ['boolean', 'null'] },
    status: taskAgentStatusSchema,
    provisioningState: { type: ['string', 'null'] },
    accessPoint: { type: ['string', 'null'] },
  },
} as const;

export const taskAgentSessionKeySchema = {
  type: 'object',
  required: ['value'],
  properties: {
    encrypted: { type: 'boolean' },
    value: base64Schema,
  },
} as const;

/** Route schema for the session request body (legacy `POST sessions`, broker `POST session`). */
export const taskAgentSessionRequestSchema = {
  type: 'object',
  required: ['ownerName', 'agent'],
  properties: {
    sessionId: guidSchema,
    ownerName: { type: ['string', 'null'] },
    agent: taskAgentReferenceSchema,
    useFipsEncryption: { type: 'boolean' },
    encryptionKey: { anyOf: [taskAgentSessionKeySchema, { type: 'null' }] },
  },
} as const;

/** Route schema for the session response. */
export const taskAgentSessionResponseSchema = {
  type: 'object',
  required: ['sessionId', 'ownerName', 'agent', 'useFipsEncryption'],
  properties: {
    sessionId: guidSchema,
    ownerName: { type: ['string', 'null'] },
    agent: taskAgentReferenceSchema,
    encryptionKey: taskAgentSessionKeySchema,
    useFipsEncryption: { type: 'boolean' },
    brokerMigrationMessage: brokerMigrationBodySchema,
  },
} as const;
