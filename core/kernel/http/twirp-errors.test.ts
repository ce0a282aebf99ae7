import assert from 'node:assert/strict';
import { test } from 'node:test';
import Fastify from 'fastify';
import { ConflictError, NotFoundError } from '../errors.js';
import { installTwirpErrorHandler, TwirpError } from './twirp-errors.js';

async function answer(error: Error): Promise<{ status: number; body: unknown; auth: string | undefined }> {
  const app = Fastify({ logger: false });
  installTwirpErrorHandler(app);
  app.post('/twirp/x.Y/Z', { schema: { body: { type: 'object', required: ['a'] } } }, async () => {
    throw error;
  });
  const reply = await app.inject({ method: 'POST', url: '/twirp/x.Y/Z', payload: { a: 1 } });
  await app.close();
  const auth = reply.headers['www-authenticate'];
  return { status: reply.statusCode, body: reply.json(), auth: typeof auth === 'string' ? auth : undefined };
}

test('a TwirpError answers its code with the code status; unauthenticated adds the Bearer challenge', async () => {
  assert.deepEqual(await answer(new TwirpError('failed_precondition', 'over')), { status: 412, body: { code: 'failed_precondition', msg: 'over' }, auth: undefined });
  assert.deepEqual(await answer(new TwirpError('unauthenticated', 'no token')), { status: 401, body: { code: 'unauthenticated', msg: 'no token' }, auth: 'Bearer' });
});

test('our errors keep a Twirp code they name, else map by status; anything else is internal without details', async () => {
  assert.deepEqual((await answer(new ConflictError('exists', { code: 'already_exists' }))).body, { code: 'already_exists', msg: 'exists' });
  assert.deepEqual((await answer(new ConflictError('a race'))).body, { code: 'aborted', msg: 'a race' });
  assert.deepEqual((await answer(new NotFoundError('gone'))).body, { code: 'not_found', msg: 'gone' });
  const bug = await answer(new TypeError('secret detail'));
  assert.equal(bug.status, 500);
  assert.deepEqual(bug.body, { code: 'internal', msg: 'internal error; the server log has the details' });
});

test('a body that fails its schema or is not JSON is a 400, never a 500', async () => {
  const app = Fastify({ logger: false });
  installTwirpErrorHandler(app);
  app.post('/twirp/x.Y/Z', { schema: { body: { type: 'object', required: ['a'] } } }, async () => ({}));
  const invalid = await app.inject({ method: 'POST', url: '/twirp/x.Y/Z', payload: {} });
  const malformed = await app.inject({ method: 'POST', url: '/twirp/x.Y/Z', headers: { 'content-type': 'application/json' }, payload: '{' });
  await app.close();
  assert.equal(invalid.statusCode, 400);
  assert.equal(invalid.json<{ code: string }>().code, 'invalid_argument');
  assert.equal(malformed.statusCode, 400);
  assert.equal(malformed.json<{ code: string }>().code, 'malformed');
});
