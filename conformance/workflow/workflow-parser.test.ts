import assert from 'node:assert/strict';
import { test } from 'node:test';
import { requireCorpus } from '../../test/support/corpus.js';
import { workflowParserSuite } from './workflow-parser.js';

const corpus = requireCorpus('workflow-parser');

test('workflow-parser corpus: every file passes through our loadWorkflow()', { skip: corpus.skip }, async (t) => {
  const results = await workflowParserSuite.run();
  const failures = results.filter((result) => !result.passed);
  t.diagnostic(`${workflowParserSuite.name}: ${results.length - failures.length}/${results.length} passed`);
  // The corpus holds 195 files; far fewer means it was not found or not read.
  assert.ok(results.length >= 195, `only ${results.length} files read`);
  assert.deepEqual(
    failures.map((failure) => `${failure.id}: ${failure.reason ?? ''}`),
    [],
  );
});
