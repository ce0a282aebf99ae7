// `npm run conform:workflow`: runs every workflow-semantics suite and prints one line per suite,
// `<suite>: <passed>/<total> passed`, then the failures; exits non-zero if any case fails.
import { corpusStatus } from '../../test/support/corpus.js';
import { expressionsSuite } from './expressions.js';
import { filtersSuite } from './filters.js';
import { jobsSuite } from './jobs.js';
import { matrixSuite } from './matrix.js';
import type { CaseResult, ConformanceSuite } from './suite.js';
import { templatesSuite } from './templates.js';
import { workflowParserSuite } from './workflow-parser.js';

const suites: readonly ConformanceSuite[] = [expressionsSuite, workflowParserSuite, filtersSuite, matrixSuite, templatesSuite, jobsSuite];

const failures: { suite: string; result: CaseResult }[] = [];
let missingCorpus = false;
for (const suite of suites) {
  const corpus = suite.corpus === undefined ? undefined : corpusStatus(suite.corpus);
  if (corpus?.kind === 'missing') {
    console.log(`${suite.name}: skipped: ${corpus.message}`);
    missingCorpus ||= corpus.fail;
    continue;
  }
  const results = await suite.run();
  const passed = results.filter((r) => r.passed).length;
  console.log(`${suite.name}: ${passed}/${results.length} passed`);
  for (const result of results) if (!result.passed) failures.push({ suite: suite.name, result });
}
for (const { suite, result } of failures.slice(0, 50)) console.log(`  FAIL ${suite} ${result.id}: ${result.reason ?? ''}`);
if (failures.length > 50) console.log(`  ... and ${failures.length - 50} more`);
process.exitCode = failures.length === 0 && !missingCorpus ? 0 : 1;
