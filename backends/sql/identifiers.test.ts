import assert from 'node:assert/strict';
import { test } from 'node:test';
import { InputError } from '../../core/kernel/index.js';
import { assertIdentifier } from './identifiers.js';

test('identifiers are letters, digits and underscores, at most 63 characters', () => {
  for (const ok of ['jobs', 'lease_owner', '_x1', 'A'.repeat(63)]) assert.equal(assertIdentifier(ok, 'table'), ok);
  for (const bad of ['', '1jobs', 'jobs;', 'a-b', 'a b', 'a.b', '"a"', 'A'.repeat(64), 'jöbs']) {
    assert.throws(() => assertIdentifier(bad, 'table'), InputError, bad);
  }
});
