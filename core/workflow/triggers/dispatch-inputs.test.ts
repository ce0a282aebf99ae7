import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { resolveDispatchInputs } from './dispatch-inputs.js';
import type { JsonValue } from './types.js';

// The docs' example ("Providing inputs" under workflow_dispatch).
const declared = {
  logLevel: { description: 'Log level', required: true, default: 'warning', type: 'choice', options: ['info', 'warning', 'debug'] },
  tags: { description: 'Test scenario tags', required: false, type: 'boolean' },
  environment: { description: 'Environment to run tests against', type: 'environment', required: true },
};

describe('resolveDispatchInputs', () => {
  it('converts values to their declared types and keeps strings in the payload', () => {
    const result = resolveDispatchInputs(declared, { logLevel: 'debug', tags: 'true', environment: 'staging' });
    assert.ok(result.ok);
    assert.deepEqual(result.inputs, { logLevel: 'debug', tags: true, environment: 'staging' });
    assert.deepEqual(result.payload, { logLevel: 'debug', tags: 'true', environment: 'staging' });
  });

  it('applies declared and implicit defaults to optional inputs', () => {
    const result = resolveDispatchInputs(
      { a: { default: 'x' }, b: { type: 'boolean', default: true }, c: { type: 'number' }, d: { type: 'choice', options: ['p', 'q'] }, e: null },
      {},
    );
    assert.ok(result.ok);
    assert.deepEqual(result.inputs, { a: 'x', b: true, c: 0, d: 'p', e: '' });
    assert.deepEqual(result.payload, { a: 'x', b: 'true', c: '0', d: 'p', e: '' });
  });

  it('requires required inputs even when they declare a default', () => {
    const result = resolveDispatchInputs(declared, { tags: false });
    assert.equal(result.ok, false);
    if (!result.ok) {
      assert.deepEqual(result.errors.map((e) => [e.input, e.code]), [['logLevel', 'required'], ['environment', 'required']]);
      assert.equal(result.errors[0]?.message, "Required input 'logLevel' not provided");
    }
  });

  it('rejects values that do not convert', () => {
    const result = resolveDispatchInputs(
      { b: { type: 'boolean' }, n: { type: 'number' }, c: { type: 'choice', options: ['x'] }, s: { type: 'string' } },
      { b: 'yes', n: '12abc', c: 'y', s: { nested: true } },
    );
    assert.equal(result.ok, false);
    if (!result.ok) assert.deepEqual(result.errors.map((e) => e.code), ['type', 'type', 'choice', 'type']);
  });

  it('reads numbers from numeric strings and keeps the text for the payload', () => {
    const result = resolveDispatchInputs({ n: { type: 'number' } }, { n: ' 2.50 ' });
    assert.ok(result.ok);
    assert.equal(result.inputs['n'], 2.5);
    assert.equal(result.payload['n'], ' 2.50 ');
  });

  it('keeps unknown keys in the payload only, and matches names case-insensitively', () => {
    const result = resolveDispatchInputs({ logLevel: { type: 'string' } }, { LOGLEVEL: 'x', extra: 42 });
    assert.ok(result.ok);
    assert.deepEqual(result.inputs, { logLevel: 'x' });
    assert.deepEqual(result.payload, { logLevel: 'x', extra: 42 });
  });

  it('rejects a non-object inputs value and malformed declarations', () => {
    assert.equal(resolveDispatchInputs({}, 'x').ok, false);
    const bad = resolveDispatchInputs({ c: { type: 'choice' }, t: { type: 'date' } }, {});
    assert.equal(bad.ok, false);
    if (!bad.ok) assert.ok(bad.errors.every((e) => e.code === 'declaration'));
  });

  it('accepts no declaration and no inputs', () => {
    assert.deepEqual(resolveDispatchInputs(undefined, undefined), { ok: true, inputs: {}, payload: {} });
  });
});

describe('resolveDispatchInputs: hostile keys', () => {
  it('keeps __proto__ as a plain key of the payload', () => {
    const given: JsonValue = JSON.parse('{"__proto__": {"polluted": true}}');
    const result = resolveDispatchInputs({}, given);
    assert.ok(result.ok);
    assert.equal(Object.getPrototypeOf(result.payload), Object.prototype);
    assert.deepEqual(Object.keys(result.payload), ['__proto__']);
  });
});
