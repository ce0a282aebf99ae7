import assert from 'node:assert/strict';
import { it } from 'node:test';
import { templatesSuite } from './templates.js';

it('passes every template conformance case', async () => {
  const results = await templatesSuite.run();
  const failed = results.filter((r) => !r.passed).map((r) => `${r.id}: ${r.reason ?? ''}`);
  assert.deepEqual(failed, []);
  assert.equal(new Set(results.map((r) => r.id)).size, results.length, 'case ids are unique');
  assert.ok(results.length >= 60, `expected the full table, got ${results.length} cases`);
});
