/**
 * svc-runner's wire sequence against the replay corpus: for each scenario where svc-runner can
 * play the runner's part (svc-runner/plans.ts), the replay's runner calls must appear in
 * svc-runner's, in order, on method + route template, with no error the corpus does not expect.
 * A known divergence is a todo naming the request that differs.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { readVersions } from '../../core/kernel/index.js';
import { withPooledSigningKey } from '../../test/support/pooled-signing-key.js';
import { testRsaKey } from '../../test/support/test-rsa-keys.js';
import { loadCorpus } from './replay/load-corpus.js';
import { checkScenario, RUNNER_PLANS } from './svc-runner/index.js';

const versions = readVersions();
const runnerVersion = versions.replayCorpusRunnerVersion;
const corpus = loadCorpus({ runnerVersion, expectedRecordedAgainst: runnerVersion });

describe(`svc-runner's sequence against the replay corpus (runner ${runnerVersion})`, () => {
  for (const plan of RUNNER_PLANS) {
    it(plan.scenario, { ...(plan.divergence === undefined ? {} : { todo: plan.divergence }), timeout: 240_000 }, async (t) => {
      // The replay's runner keys and the server's signing key from the machine's pool of test keys.
      const result = await checkScenario(corpus, plan, runnerVersion, { newRsaKey: testRsaKey, wrapCatalog: (catalog) => withPooledSigningKey(catalog, { SVC_CREDENTIAL_STORE: 'memory' }) });
      if (result.comparison && result.comparison.extras.length > 0) t.diagnostic(`extra calls of svc-runner: ${result.comparison.extras.join(', ')}`);
      assert.equal(result.status, 'pass', `${result.reason ?? ''}\n  svc-runner's calls:\n    ${(result.comparison?.actual ?? []).join('\n    ')}`);
    });
  }
});
