/**
 * The runner-protocol replay corpus against in-process servers (what `npm run conform:protocol`
 * does), one test per scenario so a failure names its scenario and the step that differed.
 * Quarantined definitions (a defect of the corpus itself) are skipped with their reason.
 */
import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { readVersions } from '../../core/kernel/index.js';
import { withPooledSigningKey } from '../../test/support/pooled-signing-key.js';
import { testRsaKey } from '../../test/support/test-rsa-keys.js';
import { loadCorpus } from './replay/load-corpus.js';
import { replayCorpus, type ReplayResult } from './replay/run-corpus.js';

const versions = readVersions();
const runnerVersion = versions.replayCorpusRunnerVersion;
const corpus = loadCorpus({ runnerVersion, expectedRecordedAgainst: versions.replayCorpusRunnerVersion });

describe(`runner-protocol replay corpus (runner ${runnerVersion})`, () => {
  it('loads: every file valid, recorded against versions.toml replay_corpus_runner_version', () => {
    assert.deepEqual(corpus.errors, []);
    assert.equal(corpus.settings.recordedAgainst, runnerVersion);
    assert.equal(corpus.scenarios.length, 39, 'the spec names 39 capture definitions');
  });

  const results = new Map<string, Promise<ReplayResult>>();
  const settle = new Map<string, (result: ReplayResult) => void>();
  for (const scenario of corpus.scenarios) {
    results.set(scenario.definition.name, new Promise((resolve) => settle.set(scenario.definition.name, resolve)));
  }

  before(() => {
    // One replay for the suite (servers shared per profile, as the CLI does); each test awaits its own result.
    // Runners' keys and servers' signing keys from the machine's pool of test keys: RSA key
    // generation was most of this suite's CPU time.
    void replayCorpus({
      corpus,
      runnerVersion,
      newRsaKey: testRsaKey,
      serverOptions: { wrapCatalog: (catalog) => withPooledSigningKey(catalog, { SVC_CREDENTIAL_STORE: 'memory' }) },
      onResult: (result) => settle.get(result.name)?.(result),
    }).catch((error: unknown) => {
      for (const resolve of settle.values()) resolve({ name: '?', status: 'fail', reason: `the replay stopped: ${(error as Error).message}` });
    });
  });

  for (const scenario of corpus.scenarios) {
    const { name, title } = scenario.definition;
    it(`${name}: ${title}`, { skip: scenario.quarantined === undefined ? false : `quarantined: ${scenario.quarantined}` }, async () => {
      const result = await results.get(name);
      assert.ok(result, `no result for ${name}`);
      assert.equal(result.status, 'pass', `${result.reason ?? ''}\n    ${(result.exchanges ?? []).slice(-12).join('\n    ')}`);
    });
  }
});
