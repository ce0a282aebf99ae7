import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import Fastify, { type FastifyInstance } from 'fastify';
import {
  brokerError,
  brokerErrorSchema,
  completeJobRequestSchema,
  jobRequestQuerySchema,
  jobRequestUpdateSchema,
  messagePollQuerySchema,
  taskAgentJobRequestSchema,
  taskAgentMessageSchema,
  taskAgentSessionRequestSchema,
  taskAgentSessionResponseSchema,
  vssException,
  vssExceptionSchema,
} from './index.js';

// The schemas are meant to be handed to Fastify as they are: compiled by its Ajv (with the
// options core/kernel/http/server.ts uses) for requests, and by fast-json-stringify for responses,
// which drops any member a response schema does not list.
describe('the schemas as Fastify route schemas', () => {
  let app: FastifyInstance;

  before(async () => {
    app = Fastify({ ajv: { customOptions: { allErrors: false, removeAdditional: false, coerceTypes: 'array' } } });
    app.post('/sessions', { schema: { body: taskAgentSessionRequestSchema, response: { 200: taskAgentSessionResponseSchema, 409: vssExceptionSchema } } }, async (request, reply) => {
      const body = request.body as { ownerName: string; agent: { id: number; name: string; version: string } };
      if (body.agent.name === 'busy') {
        return reply.code(409).send(vssException('TaskAgentSessionConflictException', 'A session for this runner already exists.'));
      }
      return {
        sessionId: '6a3f8f3e-2f1b-4a63-9f3b-0d3f4e1d5c21',
        ownerName: body.ownerName,
        agent: body.agent,
        encryptionKey: { encrypted: true, value: 'q83vEjRWeJA=' },
        useFipsEncryption: true,
      };
    });
    app.get('/messages', { schema: { querystring: messagePollQuerySchema, response: { 200: taskAgentMessageSchema, 404: brokerErrorSchema } } }, async (request, reply) => {
      const query = request.query as { lastMessageId?: number; disableUpdate?: boolean };
      if (query.lastMessageId === 99) return reply.code(404).send(brokerError('RunnerNotFound', 'gone'));
      return { messageId: (query.lastMessageId ?? 0) + 1, messageType: 'JobCancellation', body: JSON.stringify(query), iv: null };
    });
    app.patch('/jobrequests/:id', { schema: { body: jobRequestUpdateSchema, querystring: jobRequestQuerySchema, response: { 200: taskAgentJobRequestSchema } } }, async (request) => {
      const body = request.body as { requestId: number };
      return { requestId: body.requestId, lockedUntil: '2026-08-21T10:20:00Z', reservedAgent: { id: 42, name: 'build-01' } };
    });
    app.post('/completejob', { schema: { body: completeJobRequestSchema } }, async () => ({}));
    await app.ready();
  });

  after(async () => {
    await app.close();
  });

  it('validates a session request and serializes the full session response', async () => {
    const res = await app.inject({
      method: 'POST',
      url: '/sessions',
      payload: { sessionId: '00000000-0000-0000-0000-000000000000', ownerName: 'h (PID: 1)', agent: { id: 42, name: 'build-01', version: '2.337.0', status: 0, ephemeral: null }, useFipsEncryption: false },
    });
    assert.equal(res.statusCode, 200, res.body);
    assert.deepEqual(res.json(), {
      sessionId: '6a3f8f3e-2f1b-4a63-9f3b-0d3f4e1d5c21',
      ownerName: 'h (PID: 1)',
      agent: { id: 42, name: 'build-01', version: '2.337.0', ephemeral: null, status: 0 },
      encryptionKey: { encrypted: true, value: 'q83vEjRWeJA=' },
      useFipsEncryption: true,
    });
  });

  it('answers a bad session request with 400 and keeps the VSS envelope intact', async () => {
    const bad = await app.inject({ method: 'POST', url: '/sessions', payload: { ownerName: 'h' } });
    assert.equal(bad.statusCode, 400);
    const conflict = await app.inject({ method: 'POST', url: '/sessions', payload: { ownerName: 'h', agent: { id: 1, name: 'busy', version: '2.337.0' } } });
    assert.equal(conflict.statusCode, 409);
    assert.deepEqual(conflict.json(), vssException('TaskAgentSessionConflictException', 'A session for this runner already exists.'));
  });

  it('coerces the poll query and serializes messages and broker errors', async () => {
    const sessionId = '6a3f8f3e-2f1b-4a63-9f3b-0d3f4e1d5c21';
    const res = await app.inject({ method: 'GET', url: `/messages?sessionId=${sessionId}&lastMessageId=16&status=Online&runnerVersion=2.337.0&os=Linux&architecture=X64&disableUpdate=false` });
    assert.equal(res.statusCode, 200, res.body);
    const message = res.json();
    assert.equal(message.messageId, 17);
    assert.equal(message.iv, null);
    assert.equal(JSON.parse(message.body).disableUpdate, false);
    const gone = await app.inject({ method: 'GET', url: `/messages?sessionId=${sessionId}&lastMessageId=99` });
    assert.deepEqual(gone.json(), brokerError('RunnerNotFound', 'gone'));
    assert.equal((await app.inject({ method: 'GET', url: '/messages?status=Online' })).statusCode, 400);
  });

  it('takes a renewal and a completion as the runner sends them', async () => {
    const renew = await app.inject({ method: 'PATCH', url: '/jobrequests/1001?lockToken=00000000-0000-0000-0000-000000000000', payload: { requestId: 1001, data: {} } });
    assert.equal(renew.statusCode, 200, renew.body);
    assert.deepEqual(renew.json(), { requestId: 1001, lockedUntil: '2026-08-21T10:20:00Z', reservedAgent: { id: 42, name: 'build-01' } });
    assert.equal((await app.inject({ method: 'PATCH', url: '/jobrequests/1001', payload: { requestId: 1001 } })).statusCode, 400, 'lockToken is required');
    const done = await app.inject({
      method: 'POST',
      url: '/completejob',
      payload: { planId: 'd0ab717e-3242-433d-99af-c143d1ad0fe1', jobId: 'af60f1ed-e283-516c-8d88-01cc3ee1c589', conclusion: 'failed', stepResults: [{ status: 'completed', conclusion: 'failed' }] },
    });
    assert.equal(done.statusCode, 200, done.body);
    assert.equal((await app.inject({ method: 'POST', url: '/completejob', payload: { conclusion: 'failed' } })).statusCode, 400);
  });
});
