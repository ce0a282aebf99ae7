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

  it('fills an omitted required input from its default, as GitHub does, and requires only those without one', () => {
    const result = resolveDispatchInputs(declared, { tags: false });
    assert.equal(result.ok, false);
    if (!result.ok) {
      assert.deepEqual(result.errors.map((e) => [e.input, e.code]), [['environment', 'required']]);
      assert.equal(result.errors[0]?.message, "Required input 'environment' not provided");
    }
    const filled = resolveDispatchInputs(declared, { environment: 'staging' });
    assert.ok(filled.ok);
    assert.deepEqual(filled.inputs, { logLevel: 'warning', tags: false, environment: 'staging' });
    assert.deepEqual(filled.payload, { logLevel: 'warning', tags: 'false', environment: 'staging' });
    const typed = resolveDispatchInputs({ dry: { type: 'boolean', required: true, default: true }, n: { type: 'number', required: true, default: '3' } }, undefined);
    assert.ok(typed.ok);
    assert.deepEqual([typed.inputs, typed.payload], [{ dry: true, n: 3 }, { dry: 'true', n: '3' }]);
  });

  it('rejects values that do not convert, in GitHub\'s words where it has them', () => {
    const result = resolveDispatchInputs(
      { b: { type: 'boolean' }, n: { type: 'number' }, c: { type: 'choice', options: ['x', 'z'] }, s: { type: 'string' } },
      { b: '', n: '12abc', c: 'y', s: { nested: true } },
    );
    assert.equal(result.ok, false);
    if (!result.ok) {
      assert.deepEqual(result.errors.map((e) => e.code), ['type', 'type', 'choice', 'type']);
      assert.deepEqual(result.errors.map((e) => e.message), [
        "Provided value '' for input 'b' not in the list of allowed values: [true, false]",
        "input 'n' must be a number, got '12abc'",
        "Provided value 'y' for input 'c' not in the list of allowed values: [x, z]",
        "input 's' must be a string, got a map",
      ]);
    }
  });

  it('takes booleans as JSON or as the strings true and false only, and a choice or environment as text', () => {
    const declarations = { b: { type: 'boolean' }, c: { type: 'choice', options: ['1', 'two'] }, e: { type: 'environment' } };
    const result = resolveDispatchInputs(declarations, { b: 'false', c: 1, e: 'production' });
    assert.ok(result.ok);
    assert.deepEqual([result.inputs, result.payload], [{ b: false, c: '1', e: 'production' }, { b: 'false', c: '1', e: 'production' }]);
    for (const value of ['True', 'yes', '1', 1]) assert.equal(resolveDispatchInputs(declarations, { b: value }).ok, false, String(value));
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
    assert.deepEqual(resolveDispatchInputs({ logLevel: { type: 'string' } }, { extra: 42 }, { unexpected: 'keep' }).ok, true);
  });

  it('refuses unknown keys when the caller asks, naming every one as GitHub does', () => {
    const result = resolveDispatchInputs({ logLevel: { type: 'string' } }, { LOGLEVEL: 'x', extra: 42, 'other key': true }, { unexpected: 'refuse' });
    assert.equal(result.ok, false);
    if (!result.ok) assert.deepEqual(result.errors, [{ input: '', code: 'unknown', message: 'Unexpected inputs provided: ["extra", "other key"]' }]);
    assert.equal(resolveDispatchInputs({ logLevel: { type: 'string' } }, { loglevel: 'x' }, { unexpected: 'refuse' }).ok, true);
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
