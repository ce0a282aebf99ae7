/**
 * A clone without `../shared/corpus`: the corpus suites skip with a message naming the missing
 * directory, and fail with `CI=true` (test/support/corpus.ts). Checked on the helper, then on a
 * real corpus suite run the way `npm test` runs it, pointed at a missing directory.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { describe, it } from 'node:test';
import { CORPUS_VARIABLE, DEFAULT_CORPUS_ROOT, corpusRoot, corpusStatus } from './corpus.js';
import { tempDir } from './services.js';

const REPOSITORY = fileURLToPath(new URL('../../', import.meta.url));

describe('the corpus location', () => {
  it('is ../shared/corpus beside the repository unless SVC_TEST_CORPUS_DIR names another', () => {
    assert.equal(fileURLToPath(DEFAULT_CORPUS_ROOT), join(REPOSITORY, '..', 'shared', 'corpus') + '/');
    assert.equal(corpusRoot({}).href, DEFAULT_CORPUS_ROOT.href);
    assert.equal(corpusRoot({ [CORPUS_VARIABLE]: '' }).href, DEFAULT_CORPUS_ROOT.href);
    assert.equal(corpusRoot({ [CORPUS_VARIABLE]: '/data/corpus' }).href, 'file:///data/corpus/');
  });

  it('finds a part that is there, and says what a missing one means outside CI and in CI', async (t) => {
    const root = await tempDir(t);
    await mkdir(join(root, 'expressions'));
    const rootUrl = pathToFileURL(`${root}/`);
    const present = corpusStatus('expressions', { root: rootUrl, ci: true });
    assert.deepEqual(present, { kind: 'present', dir: new URL('expressions/', rootUrl) });

    const skipped = corpusStatus('job-messages', { root: rootUrl, ci: false });
    assert.equal(skipped.kind, 'missing');
    if (skipped.kind === 'missing') {
      assert.equal(skipped.fail, false);
      assert.equal(skipped.message.startsWith(`${join(root, 'job-messages')}/ is missing: corpus suites SKIPPED`), true, skipped.message);
      assert.match(skipped.message, new RegExp(CORPUS_VARIABLE));
    }
    const failed = corpusStatus('job-messages', { root: rootUrl, ci: true });
    assert.equal(failed.kind === 'missing' && failed.fail, true);
    if (failed.kind === 'missing') assert.match(failed.message, /is missing: CI must run the corpus suites/);
  });
});

describe('a corpus suite run without its corpus', () => {
  it('is skipped outside CI, naming the directory, and fails with CI=true', async (t) => {
    const missing = join(await tempDir(t), 'no-corpus');
    const suite = 'conformance/workflow/expressions.test.ts';
    const outside = await runSuite(suite, { [CORPUS_VARIABLE]: missing });
    assert.equal(outside.code, 0, outside.output);
    assert.match(outside.output, /# SKIP .*no-corpus\/expressions\/ is missing: corpus suites SKIPPED/);
    assert.match(outside.output, /# fail 0/);

    const inCi = await runSuite(suite, { [CORPUS_VARIABLE]: missing, CI: 'true' });
    assert.equal(inCi.code, 1, inCi.output);
    assert.match(inCi.output, /no-corpus\/expressions\/ is missing: CI must run the corpus suites/);
    assert.match(inCi.output, /# fail 1/);
  });
});

/** `node --import tsx --test <file>` as scripts/test.mjs runs it; exit code and stdout + stderr. */
function runSuite(file: string, env: Record<string, string>): Promise<{ code: number | null; output: string }> {
  const childEnv: NodeJS.ProcessEnv = { ...process.env, ...env };
  if (env['CI'] === undefined) delete childEnv['CI'];
  // Set by the runner around each test file: the child would report to it instead of printing.
  delete childEnv['NODE_TEST_CONTEXT'];
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', '--test', '--test-reporter=tap', file], { cwd: REPOSITORY, env: childEnv });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, output }));
  });
}
