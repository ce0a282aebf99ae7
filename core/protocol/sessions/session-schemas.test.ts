import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Ajv } from 'ajv';
import {
  taskAgentMessageSchema,
  messageDeleteQuerySchema,
  messagePollQuerySchema,
  taskAgentSessionRequestSchema,
  taskAgentSessionResponseSchema,
} from './index.js';
import type { MessagePollQuery, TaskAgentMessage, TaskAgentSessionRequest, TaskAgentSessionResponse } from './index.js';

// Strict, so a misspelt keyword in a schema fails here; union types as the schemas use them.
const ajv = new Ajv({ strict: true, allErrors: true, allowUnionTypes: true });
// The server's query-string validation coerces (core/kernel/http/server.ts); mirror it for queries.
const coercing = new Ajv({ strict: true, allowUnionTypes: true, coerceTypes: 'array' });

function valid(schema: object, value: unknown, instance: Ajv = ajv): boolean {
  return instance.validate(schema, value);
}

// What the runner sends (RUNNER-PROTOCOL.md §2.2; MessageListener.CreateSessionAsync).
const sessionRequest: TaskAgentSessionRequest = {
  sessionId: '00000000-0000-0000-0000-000000000000',
  ownerName: 'build-host (PID: 4242)',
  agent: { id: 42, name: 'build-01', version: '2.337.0', osDescription: 'Ubuntu 24.04.1 LTS', ephemeral: null, status: 0, provisioningState: null },
  useFipsEncryption: false,
};

const sessionResponse: TaskAgentSessionResponse = {
  sessionId: '6a3f8f3e-2f1b-4a63-9f3b-0d3f4e1d5c21',
  ownerName: 'build-host (PID: 4242)',
  agent: { id: 42, name: 'build-01', version: '2.337.0' },
  encryptionKey: { encrypted: true, value: 'q83vEjRWeJA=' },
  useFipsEncryption: true,
};

describe('session shapes', () => {
  it('accepts the runner\'s session request, legacy and broker alike', () => {
    assert.ok(valid(taskAgentSessionRequestSchema, sessionRequest), JSON.stringify(ajv.errors));
    assert.ok(valid(taskAgentSessionRequestSchema, { ...sessionRequest, agent: { ...sessionRequest.agent, status: 'online' } }));
    assert.ok(valid(taskAgentSessionRequestSchema, { ...sessionRequest, sessionId: '6A3F8F3E-2F1B-4A63-9F3B-0D3F4E1D5C21' }), 'GUIDs in either case');
  });

  it('refuses session requests without an agent, with a bad GUID or a wrong agent', () => {
    const { agent: _agent, ...noAgent } = sessionRequest;
    assert.equal(valid(taskAgentSessionRequestSchema, noAgent), false);
    assert.equal(valid(taskAgentSessionRequestSchema, { ...sessionRequest, sessionId: 'not-a-guid' }), false);
    assert.equal(valid(taskAgentSessionRequestSchema, { ...sessionRequest, agent: { ...sessionRequest.agent, id: -1 } }), false);
    assert.equal(valid(taskAgentSessionRequestSchema, { ...sessionRequest, agent: { id: 42, name: 'build-01' } }), false, 'version is required');
    assert.equal(valid(taskAgentSessionRequestSchema, { ...sessionRequest, agent: { ...sessionRequest.agent, status: 'Sleeping' } }), false);
    assert.equal(valid(taskAgentSessionRequestSchema, { ...sessionRequest, useFipsEncryption: 'false' }), false);
  });

  it('accepts session responses with a wrapped, a raw or no key', () => {
    assert.ok(valid(taskAgentSessionResponseSchema, sessionResponse), JSON.stringify(ajv.errors));
    assert.ok(valid(taskAgentSessionResponseSchema, { ...sessionResponse, encryptionKey: { encrypted: false, value: 'AAECAwQFBgcICQoLDA0ODw==' } }));
    const { encryptionKey: _key, ...plain } = sessionResponse;
    assert.ok(valid(taskAgentSessionResponseSchema, { ...plain, useFipsEncryption: false }));
    assert.ok(valid(taskAgentSessionResponseSchema, { ...sessionResponse, brokerMigrationMessage: { brokerBaseUrl: 'https://ci.example.test/_broker/' } }));
  });

  it('refuses session responses the runner cannot use', () => {
    const { useFipsEncryption: _fips, ...noFips } = sessionResponse;
    assert.equal(valid(taskAgentSessionResponseSchema, noFips), false);
    assert.equal(valid(taskAgentSessionResponseSchema, { ...sessionResponse, sessionId: '' }), false);
    assert.equal(valid(taskAgentSessionResponseSchema, { ...sessionResponse, encryptionKey: { encrypted: true, value: 'q83vEjRWeJA' } }), false, 'unpadded base64');
    assert.equal(valid(taskAgentSessionResponseSchema, { ...sessionResponse, encryptionKey: { encrypted: true } }), false);
    assert.equal(valid(taskAgentSessionResponseSchema, { ...sessionResponse, brokerMigrationMessage: { brokerBaseUrl: 'https://ci.example.test/_broker' } }), false, 'base URL without the trailing slash');
  });
});

describe('message shapes', () => {
  const encrypted: TaskAgentMessage = { messageId: 17, messageType: 'PipelineAgentJobRequest', iv: '3q2+7wAAAAAAAAAAAAAAAA==', body: 'q83vEjRWeJA=' };

  it('accepts encrypted, plain and broker messages', () => {
    assert.ok(valid(taskAgentMessageSchema, encrypted), JSON.stringify(ajv.errors));
    assert.ok(valid(taskAgentMessageSchema, { messageId: 1, messageType: 'RunnerJobRequest', body: '{"runner_request_id":"R1"}' }));
    assert.ok(valid(taskAgentMessageSchema, { messageId: 2, messageType: 'ForceTokenRefresh', body: null, iv: null }));
  });

  it('refuses messages without an id or type, or with a bad IV', () => {
    assert.equal(valid(taskAgentMessageSchema, {}), false, '"no message" is an empty answer, never {}');
    assert.equal(valid(taskAgentMessageSchema, { ...encrypted, messageId: '17' }), false);
    assert.equal(valid(taskAgentMessageSchema, { ...encrypted, messageType: '' }), false);
    assert.equal(valid(taskAgentMessageSchema, { ...encrypted, iv: '3q2+7w==!' }), false);
    const { body: _body, ...noBody } = encrypted;
    assert.equal(valid(taskAgentMessageSchema, noBody), false);
  });

  it('accepts the poll query the runner builds (values arrive as strings)', () => {
    const query = { sessionId: '6a3f8f3e-2f1b-4a63-9f3b-0d3f4e1d5c21', lastMessageId: '17', status: 'Busy', runnerVersion: '2.337.0', os: 'Linux', architecture: 'X64', disableUpdate: 'false' };
    assert.ok(valid(messagePollQuerySchema, query, coercing), JSON.stringify(coercing.errors));
    const typed: MessagePollQuery = query as unknown as MessagePollQuery;
    assert.equal(typed.lastMessageId, 17, 'coerced to a number');
    assert.equal(typed.disableUpdate, false, 'coerced to a boolean');
    assert.ok(valid(messagePollQuerySchema, { sessionId: '6a3f8f3e-2f1b-4a63-9f3b-0d3f4e1d5c21' }, coercing), 'first poll: only the session');
  });

  it('refuses polls without a session or with a status the runner never sends', () => {
    assert.equal(valid(messagePollQuerySchema, { status: 'Online' }, coercing), false);
    assert.equal(valid(messagePollQuerySchema, { sessionId: '6a3f8f3e-2f1b-4a63-9f3b-0d3f4e1d5c21', status: 'online' }, coercing), false, 'query status is the PascalCase .NET name');
    assert.equal(valid(messagePollQuerySchema, { sessionId: '6a3f8f3e-2f1b-4a63-9f3b-0d3f4e1d5c21', lastMessageId: 'x' }, coercing), false);
    assert.ok(valid(messageDeleteQuerySchema, { sessionId: '6a3f8f3e-2f1b-4a63-9f3b-0d3f4e1d5c21' }));
    assert.equal(valid(messageDeleteQuerySchema, {}), false);
  });
});
