import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { resolveCallInputs } from './call-inputs.js';

describe('resolveCallInputs', () => {
  const called = {
    username: { description: 'A username', default: 'john-doe', required: false, type: 'string' },
    verbose: { type: 'boolean' },
    retries: { type: 'number', required: true },
  };

  it('keeps typed values and fills defaults', () => {
    const result = resolveCallInputs(called, { retries: 3 });
    assert.ok(result.ok);
    assert.deepEqual(result.inputs, { username: 'john-doe', verbose: false, retries: 3 });
  });

  it("reports GitHub's errors for missing and undeclared inputs", () => {
    const result = resolveCallInputs(called, { other: 'x' });
    assert.equal(result.ok, false);
    if (!result.ok) {
      assert.deepEqual(result.errors.map((e) => e.message), [
        'Input retries is required, but not provided while calling.',
        'Invalid input, other is not defined in the referenced workflow.',
      ]);
    }
  });

  it('does not convert between types', () => {
    const result = resolveCallInputs(called, { retries: '3', verbose: 'true' });
    assert.equal(result.ok, false);
    if (!result.ok) assert.deepEqual(result.errors.map((e) => [e.input, e.code]), [['verbose', 'type'], ['retries', 'type']]);
  });

  it('requires a type on every declared input', () => {
    const result = resolveCallInputs({ x: { required: false } }, {});
    assert.equal(result.ok, false);
    if (!result.ok) assert.equal(result.errors[0]?.code, 'declaration');
  });
});
