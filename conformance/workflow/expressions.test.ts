import assert from 'node:assert/strict';
import { test } from 'node:test';
import { requireCorpus } from '../../test/support/corpus.js';
import { expressionsSuite } from './expressions.js';

const corpus = requireCorpus('expressions');

test('expressions corpus: every case passes through our expression layer', { skip: corpus.skip }, async (t) => {
  const results = await expressionsSuite.run();
  const failures = results.filter((result) => !result.passed);
  t.diagnostic(`${expressionsSuite.name}: ${results.length - failures.length}/${results.length} passed`);
  // The corpus has 1,020 cases in 28 files; far fewer means it was not found or not read.
  assert.ok(results.length >= 1000, `only ${results.length} cases read`);
  assert.deepEqual(
    failures.map((failure) => `${failure.id}: ${failure.reason ?? ''}`),
    [],
  );
});
