import assert from 'node:assert/strict';
import { it } from 'node:test';
import { jobsSuite } from './jobs.js';

it('passes every job model conformance case', async () => {
  const results = await jobsSuite.run();
  const failed = results.filter((r) => !r.passed).map((r) => `${r.id}: ${r.reason ?? ''}`);
  assert.deepEqual(failed, []);
  assert.equal(new Set(results.map((r) => r.id)).size, results.length, 'case ids are unique');
  assert.ok(results.length >= 40, `expected every case, got ${results.length}`);
});
