import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Comparator, type Answer } from './compare.js';
import { createValidator } from './formats.js';
import type { Expectation } from './scenario-types.js';

const SESSION_SHAPE = {
  $id: 'shape:test-session',
  type: 'object',
  required: ['sessionId', 'encryptionKey'],
  properties: {
    sessionId: { type: 'string', format: 'guid' },
    encryptionKey: { type: 'object', required: ['value'], properties: { encrypted: { type: 'boolean' }, value: { type: 'string', format: 'base64' } } },
    createdOn: { type: 'string', format: 'date-time' },
  },
};

function answer(status: number, body: unknown, contentType = 'application/json; charset=utf-8'): Answer {
  const text = body === undefined ? '' : typeof body === 'string' ? body : JSON.stringify(body);
  return { status, headers: { 'content-type': contentType }, text, bytes: Buffer.from(text), elapsedMs: 5 };
}

const comparator = new Comparator(createValidator([SESSION_SHAPE]));
const session = { sessionId: '6a3f8f3e-2f1b-4a63-9f3b-0d3f4e1d5c21', encryptionKey: { encrypted: true, value: 'AAECAw==' }, createdOn: '2026-08-21T10:11:12.1234567Z' };
const expectSession: Expectation = { status: 200, body: { schema: { $ref: 'shape:test-session' }, match: { encryptionKey: { encrypted: true } } } };

describe('replay comparison rules', () => {
  it('passes an answer that has the status, the shape and the semantic values', () => {
    assert.deepEqual(comparator.compare(expectSession, answer(200, session)), []);
  });

  it('fails a wrong status, and says which', () => {
    const failures = comparator.compare(expectSession, answer(404, { typeKey: 'TaskAgentNotFoundException' }));
    assert.equal(failures.length, 1);
    assert.match(failures[0] ?? '', /^status 404, expected 200/);
  });

  it('fails a missing required member', () => {
    const { encryptionKey: _dropped, ...partial } = session;
    const failures = comparator.compare(expectSession, answer(200, partial));
    assert.ok(failures.some((failure) => failure.includes("must have required property 'encryptionKey'")), failures.join('\n'));
  });

  it('ignores an unknown member by default (the runner does) and fails it when the definition says so', () => {
    const extra = { ...session, brokerMigrationMessage: null, surprise: 1 };
    assert.deepEqual(comparator.compare(expectSession, answer(200, extra)), []);
    const strict: Expectation = { status: 200, body: { schema: { $ref: 'shape:test-session' }, unknownFields: 'fail' } };
    const failures = comparator.compare(strict, answer(200, extra));
    assert.deepEqual(failures.sort(), ['brokerMigrationMessage: a member the definition does not know', 'surprise: a member the definition does not know']);
  });

  it('matches non-semantic fields by form, never by value', () => {
    const other = { ...session, sessionId: 'd0ab717e-3242-433d-99af-c143d1ad0fe1', createdOn: '0001-01-01T00:00:00', encryptionKey: { encrypted: true, value: 'BAUGBw==' } };
    assert.deepEqual(comparator.compare(expectSession, answer(200, other)), []);
    const broken = { ...session, sessionId: 'not-a-guid', createdOn: 'yesterday' };
    const failures = comparator.compare(expectSession, answer(200, broken));
    assert.ok(failures.some((failure) => failure.startsWith('/sessionId must match format "guid"')), failures.join('\n'));
    assert.ok(failures.some((failure) => failure.startsWith('/createdOn must match format "date-time"')), failures.join('\n'));
  });

  it('fails a semantic value that differs', () => {
    const failures = comparator.compare(expectSession, answer(200, { ...session, encryptionKey: { encrypted: false, value: 'AAECAw==' } }));
    assert.deepEqual(failures, ['encryptionKey.encrypted: must be true, got false']);
  });

  it('refuses a non-empty body that is not application/json, as the runner does', () => {
    const failures = comparator.compare(expectSession, answer(200, JSON.stringify(session), 'text/plain'));
    assert.match(failures[0] ?? '', /Content-Type application\/json/);
  });

  it('tells "no message" apart: an empty answer where one is required, a body where none may be', () => {
    assert.deepEqual(comparator.compare({ status: [200, 204], body: { empty: true } }, answer(204, undefined)), []);
    assert.match(comparator.compare({ body: { empty: true } }, answer(200, {}))[0] ?? '', /expected an empty answer/);
    assert.deepEqual(comparator.compare({ body: { empty: 'allowed', wrapped: true } }, answer(200, undefined)), []);
    assert.match(comparator.compare({ body: { match: { ok: true } } }, answer(200, undefined))[0] ?? '', /expected a body/);
  });

  it('holds VSS lists to {count, value} with a true count', () => {
    assert.deepEqual(comparator.compare({ body: { wrapped: true } }, answer(200, { count: 1, value: [{}] })), []);
    assert.match(comparator.compare({ body: { wrapped: true } }, answer(200, [{}]))[0] ?? '', /wrapped list/);
    assert.match(comparator.compare({ body: { wrapped: true } }, answer(200, { count: 2, value: [{}] }))[0] ?? '', /count 2 but 1 values/);
  });

  it('checks headers and the hold of a long poll', () => {
    const challenge: Answer = { ...answer(401, undefined), headers: { 'www-authenticate': 'Bearer' } };
    assert.deepEqual(comparator.compare({ status: 401, headers: { 'WWW-Authenticate': { $regex: 'Bearer' } } }, challenge), []);
    assert.equal(comparator.compare({ status: 401, headers: { 'WWW-Authenticate': { $regex: 'Bearer' } } }, answer(401, undefined)).length, 1);
    assert.match(comparator.compare({ elapsedMs: { min: 1000 } }, answer(204, undefined))[0] ?? '', /hold of at least 1000 ms/);
  });
});
