import assert from 'node:assert/strict';
import { chmod, mkdir, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { fakeJob, type FakeJob } from '../../test/svc-runner/fixtures/actions-fake-context.js';
import { loadLocalAction, resolvedFrom } from '../actions/index.js';
import type { ResolvedAction } from './handler-types.js';
import { createNodeHandler } from './node-handler.js';
import { nodeRuntimeFor } from './node-runtime.js';

const PRINT_ENV = `
const keys = ['INPUT_WHO', 'INPUT_GREETING_WORD', 'STATE_phase', 'ACTIONS_RUNTIME_TOKEN', 'GITHUB_ACTION_PATH', 'MY_ENV', 'NODE_ICU_DATA'];
console.log(process.argv[1].split('/').pop() + ' ' + keys.map((k) => k + '=' + (process.env[k] ?? '-')).join(' '));
console.log('node=' + process.versions.node.split('.')[0] + ' cwd=' + process.cwd());
`;

async function jsAction(job: FakeJob, using: string, extra = ''): Promise<ResolvedAction> {
  const dir = join(job.workspace, 'act');
  await mkdir(dir, { recursive: true });
  await writeFile(
    join(dir, 'action.yml'),
    `name: greet\ninputs:\n  who:\n    default: \${{ github.repository }}\n  greeting word:\n    default: hi\n  old:\n    deprecationMessage: use who\nruns:\n  using: ${using}\n  main: main.js\n  post: post.js\n  post-if: always()\n${extra}`,
  );
  await writeFile(join(dir, 'main.js'), PRINT_ENV);
  await writeFile(join(dir, 'post.js'), PRINT_ENV);
  return resolvedFrom(await loadLocalAction('./act', job.workspace));
}

async function externals(job: FakeJob, runtime: string): Promise<string> {
  const dir = join(job.root, 'externals');
  await mkdir(join(dir, runtime, 'bin'), { recursive: true });
  await symlink(process.execPath, join(dir, runtime, 'bin', 'node'));
  return dir;
}

/** A directory with a `node` that answers `--version` with `version` (and fails otherwise). */
async function fakeNode(job: FakeJob, version: string): Promise<string> {
  const dir = join(job.root, `fake-node-${version}`);
  await mkdir(dir, { recursive: true });
  await writeFile(join(dir, 'node'), `#!/bin/sh\nif [ "$1" = "--version" ]; then echo ${version}; exit 0; fi\necho "fake node ran" >&2\nexit 3\n`);
  await chmod(join(dir, 'node'), 0o755);
  return dir;
}

describe('the JavaScript action handler', () => {
  it('runs main with INPUT_* (defaults evaluated), the runtime variables and the bundled node, registers post with post-if, and post sees STATE_*', async (t) => {
    const job = await fakeJob(t);
    const action = await jsAction(job, 'node20');
    const handler = createNodeHandler({ externalsDir: await externals(job, 'node20'), baseEnvironment: { PATH: '/nonexistent', NODE_ICU_DATA: '/x' } });
    const main = await handler.run(job.context({ action, inputs: { old: 'x', extra: 'y' }, environment: { MY_ENV: 'mine' } }));
    assert.deepEqual(main, { outcome: 'succeeded' });
    const dir = join(job.workspace, 'act');
    assert.ok(
      job.log.lines.includes(`main.js INPUT_WHO=acme/widgets INPUT_GREETING_WORD=hi STATE_phase=- ACTIONS_RUNTIME_TOKEN=runtime-token GITHUB_ACTION_PATH=${dir} MY_ENV=mine NODE_ICU_DATA=-`),
      job.log.lines.join('\n'),
    );
    assert.ok(job.log.lines.includes(`node=20 cwd=${job.workspace}`), job.log.lines.join('\n'));
    assert.deepEqual(job.log.lines.slice(0, 6), ['##[group]Run ./act', 'with:', '  old: x', '  extra: y', '  who: acme/widgets', '  greeting word: hi']);
    assert.deepEqual(job.log.warnings, ["Input 'old' has been deprecated with message: use who", "Unexpected input(s) 'extra', valid inputs are ['who', 'greeting word', 'old']"]);
    assert.deepEqual(job.posts, [{ displayName: 'Post Run ./act', condition: 'always()', action }]);

    job.log.lines.length = 0;
    job.log.warnings.length = 0;
    const post = await handler.run(job.context({ action, stage: 'post', state: { phase: 'saved' } }));
    assert.deepEqual(post, { outcome: 'succeeded' });
    assert.equal(job.log.lines[0], 'Post job cleanup.');
    assert.match(job.log.lines[1] ?? '', /^post\.js INPUT_WHO=acme\/widgets .*STATE_phase=saved /);
    assert.deepEqual(job.log.warnings, [], 'warnings are not repeated in post');
    assert.equal(job.posts.length, 1, 'post registered once');
  });

  it('with --no-externals uses the node on PATH when its major version matches', async (t) => {
    const job = await fakeJob(t);
    const action = await jsAction(job, 'node20');
    const handler = createNodeHandler({ externalsDir: join(job.root, 'externals'), baseEnvironment: { PATH: process.env['PATH'] ?? '' } });
    assert.equal(process.versions.node.split('.')[0], '20', 'this test expects node 20 on PATH');
    const result = await handler.run(job.context({ action }));
    assert.deepEqual(result, { outcome: 'succeeded' }, job.log.errors.join('\n'));
    assert.ok(job.log.lines.includes(`node=20 cwd=${job.workspace}`));
  });

  it("fails with the spec's message when externals are missing and PATH's node is another version", async (t) => {
    const job = await fakeJob(t);
    const action = await jsAction(job, 'node20');
    const old = await fakeNode(job, 'v18.19.0');
    const handler = createNodeHandler({ externalsDir: join(job.root, 'externals'), baseEnvironment: { PATH: old } });
    assert.deepEqual(await handler.run(job.context({ action })), { outcome: 'failed' });
    assert.equal(job.log.errors.length, 1);
    assert.match(job.log.errors[0] ?? '', /^bundled node20 is missing: .*externals\/node20\/bin\/node does not exist .*the node on the runner's PATH \(.*\/node\) is v18\.19\.0, not 20\. .*configure the runner again without --no-externals\.$/);
    assert.ok(!job.log.lines.some((line) => line.includes('fake node ran')), 'the wrong node never runs the action');
  });

  it('runs node24 actions on externals/node24 and fails them without it (node on PATH is 20)', async (t) => {
    const job = await fakeJob(t);
    const action = await jsAction(job, 'node24');
    const missing = createNodeHandler({ externalsDir: join(job.root, 'externals'), baseEnvironment: { PATH: process.env['PATH'] ?? '' } });
    assert.deepEqual(await missing.run(job.context({ action })), { outcome: 'failed' });
    assert.match(job.log.errors[0] ?? '', /^bundled node24 is missing: .*not 24\./);
    const present = createNodeHandler({ externalsDir: await externals(job, 'node24'), baseEnvironment: { PATH: '/nonexistent' } });
    assert.deepEqual(await present.run(job.context({ action })), { outcome: 'succeeded' });
  });

  it("takes the fallback node from the runner's own PATH, never from $GITHUB_PATH or a step's env: PATH", async (t) => {
    const job = await fakeJob(t);
    const action = await jsAction(job, 'node20');
    const handler = createNodeHandler({ externalsDir: join(job.root, 'externals'), baseEnvironment: { PATH: process.env['PATH'] ?? '' } });
    // What setup-node leaves behind: another node first on $GITHUB_PATH (and one on a step's env: PATH).
    const other = await fakeNode(job, 'v16.0.0');
    const result = await handler.run(job.context({ action, prependPath: [other], environment: { PATH: other } }));
    assert.deepEqual(result, { outcome: 'succeeded' }, job.log.errors.join('\n'));
    assert.ok(job.log.lines.includes(`node=20 cwd=${job.workspace}`), job.log.lines.join('\n'));
    assert.ok(!job.log.lines.some((line) => line.includes('fake node ran')), 'the node on $GITHUB_PATH never runs the action');
  });

  it("explains a missing runtime with externals/<runtime>.missing when the runner root has one (no --no-externals advice)", async (t) => {
    const job = await fakeJob(t);
    const action = await jsAction(job, 'node24');
    const externalsDir = join(job.root, 'externals');
    await mkdir(externalsDir, { recursive: true });
    await writeFile(join(externalsDir, 'node24.missing'), '\n  The built-in pool runs node 20 only; node 24 actions need SVC_POOL_NODE24.  \n');
    const handler = createNodeHandler({ externalsDir, baseEnvironment: { PATH: process.env['PATH'] ?? '' } });
    assert.deepEqual(await handler.run(job.context({ action })), { outcome: 'failed' });
    assert.deepEqual(job.log.errors, ['bundled node24 is missing: The built-in pool runs node 20 only; node 24 actions need SVC_POOL_NODE24.']);

    // An empty file explains nothing: the runner's own message.
    await writeFile(join(externalsDir, 'node24.missing'), ' \n');
    job.log.errors.length = 0;
    assert.deepEqual(await handler.run(job.context({ action })), { outcome: 'failed' });
    assert.match(job.log.errors[0] ?? '', /^bundled node24 is missing: .*not 24\. .*configure the runner again without --no-externals\.$/);
  });

  it('fails a step whose script is missing, and one whose process exits non-zero', async (t) => {
    const job = await fakeJob(t);
    const action = await jsAction(job, 'node16', '');
    await writeFile(join(job.workspace, 'act', 'main.js'), 'process.exit(4)');
    const handler = createNodeHandler({ externalsDir: await externals(job, 'node20') });
    assert.deepEqual(await handler.run(job.context({ action })), { outcome: 'failed' });
    assert.deepEqual(job.log.errors, []);
    const noScript = await jsAction(job, 'node20');
    const { rm } = await import('node:fs/promises');
    await rm(join(job.workspace, 'act', 'main.js'));
    assert.deepEqual(await handler.run(job.context({ action: noScript })), { outcome: 'failed' });
    assert.deepEqual(job.log.errors, [`File not found: '${join(job.workspace, 'act', 'main.js')}'`]);
  });

  it('maps runtimes as the runner does', () => {
    assert.equal(nodeRuntimeFor('node12', {}, {}), 'node20');
    assert.equal(nodeRuntimeFor('node16', {}, {}), 'node20');
    assert.equal(nodeRuntimeFor('node20', {}, {}), 'node20');
    assert.equal(nodeRuntimeFor('node24', {}, {}), 'node24');
    assert.equal(nodeRuntimeFor('node20', { FORCE_JAVASCRIPT_ACTIONS_TO_NODE24: 'true' }, {}), 'node24');
    assert.equal(nodeRuntimeFor('node20', {}, { FORCE_JAVASCRIPT_ACTIONS_TO_NODE24: 'TRUE' }), 'node24');
    assert.equal(nodeRuntimeFor('node20', { FORCE_JAVASCRIPT_ACTIONS_TO_NODE24: 'false' }, { FORCE_JAVASCRIPT_ACTIONS_TO_NODE24: 'true' }), 'node20');
  });
});
