import assert from 'node:assert/strict';
import { it } from 'node:test';
import { filtersSuite } from './filters.js';

it('passes every filter and trigger conformance case', async () => {
  const results = await filtersSuite.run();
  const failed = results.filter((r) => !r.passed).map((r) => `${r.id}: ${r.reason ?? ''}`);
  assert.deepEqual(failed, []);
  assert.equal(new Set(results.map((r) => r.id)).size, results.length, 'case ids are unique');
  assert.ok(results.length > 100, `expected the full table, got ${results.length} cases`);
});
