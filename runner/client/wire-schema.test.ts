import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { jobCancellationBodySchema, taskAgentMessageSchema, taskAgentSessionResponseSchema } from '../../core/protocol/index.js';
import { RunnerProtocolError } from './http-error.js';
import { wireValidator } from './wire-schema.js';

describe('wire validators', () => {
  it('accept a valid answer with extra members and return it as is', () => {
    const check = wireValidator<{ messageId: number }>(taskAgentMessageSchema);
    const message = { messageId: 7, messageType: 'JobCancellation', body: '{}', iv: null, extra: { any: true } };
    assert.equal(check(message, 'the message'), message);
  });

  it('name every problem with its path, as one RunnerProtocolError', () => {
    const check = wireValidator(taskAgentMessageSchema);
    assert.throws(
      () => check({ messageId: 1.5, messageType: '', iv: 'not base64!' }, 'the message'),
      (error: unknown) => {
        assert.ok(error instanceof RunnerProtocolError);
        assert.match(error.message, /^the message is not what the runner expects: /);
        for (const problem of ["(root) must have required property 'body'", '/messageId must be integer', '/messageType must NOT have fewer than 1 characters', '/iv must match a schema in anyOf']) {
          assert.ok(error.message.includes(problem), `${problem} in ${error.message}`);
        }
        return true;
      },
    );
  });

  it('check patterns, union types, nested objects and array items', () => {
    const cancellation = wireValidator(jobCancellationBodySchema);
    assert.doesNotThrow(() => cancellation({ jobId: 'af60f1ed-e283-516c-8d88-01cc3ee1c589', timeout: '00:05:00' }, 'the cancellation'));
    assert.throws(() => cancellation({ jobId: 'af60f1ed', timeout: '5 minutes' }, 'the cancellation'), /\/jobId must match pattern .*\/timeout must match pattern/);
    const list = wireValidator({ type: 'object', required: ['value'], properties: { value: { type: ['array', 'null'], items: { type: 'object', required: ['id'], properties: { id: { type: 'integer', minimum: 1, maximum: 9 }, kind: { enum: ['a', 'b'] } } } } } });
    assert.doesNotThrow(() => list({ value: null }, 'the list'));
    assert.throws(() => list({ value: [{ id: 1, kind: 'a' }, { id: 0 }, { id: 10, kind: 'c' }, 'x'] }, 'the list'), (error: unknown) => {
      const message = (error as Error).message;
      return ['/value/1/id must be >= 1', '/value/2/id must be <= 9', '/value/2/kind must be equal to one of the allowed values', '/value/3 must be object'].every((part) => message.includes(part));
    });
    assert.throws(() => list('nope', 'the list'), /\(root\) must be object/);
  });

  it('accept the session answer the legacy queue sends', () => {
    const session = { sessionId: 'af60f1ed-e283-516c-8d88-01cc3ee1c589', ownerName: 'h', agent: { id: 1, name: 'r', version: '2.337.0' }, encryptionKey: { encrypted: true, value: 'AAAA' }, useFipsEncryption: false };
    assert.doesNotThrow(() => wireValidator(taskAgentSessionResponseSchema)(session, 'the session'));
  });

  it('refuse a schema with a keyword it does not implement, when the validator is made', () => {
    assert.throws(() => wireValidator({ type: 'object', additionalProperties: false }), /uses 'additionalProperties'/);
    assert.throws(() => wireValidator({ properties: { a: { format: 'uri' } } }), /#\/properties\/a uses 'format'/);
  });
});
