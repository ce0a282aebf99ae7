/**
 * Remote reusable workflows of local runs (`uses: owner/repo/.github/workflows/x.yml@ref`): read
 * from the action mirror (bare repositories made here with git), then the forge (the simulator,
 * checked against GitHub's OpenAPI description); each ref pinned to one commit per submission,
 * kept with the run; errors naming what was looked up and where.
 */
import assert from 'node:assert/strict';
import { describe, it, type TestContext } from 'node:test';
import { createRemoteRepositories } from '../../backends/remote-repositories/index.js';
import { remoteWorkflowReader } from '../../plugins/local-runs/remote-workflows.js';
import { isSvcError } from '../../core/kernel/index.js';
import { isolateGitConfig } from '../snapshots/support.js';
import { createActionMirror, type ActionMirror } from '../support/action-mirror.js';
import { startForgeSimulator } from '../support/forge-simulator/index.js';
import { ManualClock } from '../support/manual-clock.js';
import { onCleanup } from '../support/services.js';
import { succeed, testRunner } from '../support/test-runner.js';
import { getRun, localRunsHost, makeWorkTree, submitRun, uploadWorkTree } from './support.js';
import { createForgeClients } from '../../core/forge/index.js';

const testForgeClients = () => createForgeClients({ defaultApiUrl: 'https://api.github.com', clock: new ManualClock(), breaker: { enabled: true, threshold: 3 } });

isolateGitConfig();

const SHARED = '.github/workflows/build.yml';
const NO_FORGE = { forgeConfigured: false, forgeApiUrl: 'https://api.github.com', forgeToken: undefined } as const;

async function mirror(t: TestContext): Promise<ActionMirror> {
  const created = await createActionMirror();
  onCleanup(t, () => created.remove());
  return created;
}

/** What a reader call threw: its status, code and message. */
async function failure(promise: Promise<unknown>): Promise<{ status: number; code: string; message: string }> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  assert.ok(isSvcError(error), `expected an svc error, got ${String(error)}`);
  return { status: error.status, code: error.code, message: error.message };
}

describe('remote reusable workflows: resolution', () => {
  it('reads a workflow at a tag, a branch or a commit, names the ref as GitHub does, and pins one commit per repository and ref', async (t) => {
    const m = await mirror(t);
    const first = await m.commit('acme/shared', { files: { [SHARED]: 'first build\n', '.github/workflows/test.yml': 'first test\n' }, tags: ['v1'] });
    const repositories = createRemoteRepositories({ actionsMirrorDir: m.dir, ...NO_FORGE }, new ManualClock(), testForgeClients());
    const read = remoteWorkflowReader(repositories);
    assert.deepEqual(await read({ repository: 'acme/shared', path: SHARED, ref: 'v1' }), {
      name: `acme/shared/${SHARED}@v1`,
      content: 'first build\n',
      commit: { ref: 'refs/tags/v1', sha: first },
    });
    assert.deepEqual((await read({ repository: 'acme/shared', path: SHARED, ref: 'main' })).commit, { ref: 'refs/heads/main', sha: first });
    assert.deepEqual((await read({ repository: 'acme/shared', path: SHARED, ref: first })).commit, { ref: first, sha: first });

    // The tag moves while the submission is read: what it calls at v1 stays at the first commit.
    const second = await m.commit('acme/shared', { files: { [SHARED]: 'second build\n', '.github/workflows/test.yml': 'second test\n' }, tags: ['v1'] });
    assert.deepEqual(await read({ repository: 'acme/shared', path: '.github/workflows/test.yml', ref: 'v1' }), {
      name: 'acme/shared/.github/workflows/test.yml@v1',
      content: 'first test\n',
      commit: { ref: 'refs/tags/v1', sha: first },
    });
    // The next submission sees where the tag is now.
    const next = await remoteWorkflowReader(repositories)({ repository: 'acme/shared', path: '.github/workflows/test.yml', ref: 'v1' });
    assert.deepEqual([next.content, next.commit], ['second test\n', { ref: 'refs/tags/v1', sha: second }]);
  });

  it('names what it looked up and where for a repository, ref or file nobody has; refuses what GitHub refuses; 501 without a source', async (t) => {
    const m = await mirror(t);
    const sha = await m.commit('acme/shared', { files: { [SHARED]: 'on: workflow_call\n' }, tags: ['v1'] });
    const read = remoteWorkflowReader(createRemoteRepositories({ actionsMirrorDir: m.dir, ...NO_FORGE }, new ManualClock(), testForgeClients()));
    const where = `the mirror at ${m.dir} (SVC_ACTIONS_MIRROR_DIR)`;

    const noRef = await failure(read({ repository: 'acme/shared', path: SHARED, ref: 'v9' }));
    assert.deepEqual(noRef, {
      status: 404,
      code: 'reusable_workflow_not_found',
      message: `uses: acme/shared/${SHARED}@v9: no source has acme/shared at 'v9' (looked up in ${where}): the mirror's acme/shared has no tag, branch or commit 'v9'`,
    });
    const noRepository = await failure(read({ repository: 'acme/gone', path: SHARED, ref: 'v1' }));
    assert.equal(noRepository.status, 404);
    assert.match(noRepository.message, /looked up in the mirror at .*\): the mirror has no acme\/gone\.git$/);
    const noFile = await failure(read({ repository: 'acme/shared', path: '.github/workflows/gone.yml', ref: 'v1' }));
    assert.deepEqual(noFile, {
      status: 404,
      code: 'reusable_workflow_not_found',
      message: `uses: acme/shared/.github/workflows/gone.yml@v1: acme/shared at 'v1' (commit ${sha} in ${where}) has no file .github/workflows/gone.yml`,
    });

    const prefixed = await failure(read({ repository: 'acme/shared', path: SHARED, ref: 'refs/heads/main' }));
    assert.equal(prefixed.status, 422);
    assert.equal(prefixed.code, 'invalid_workflow_reference');
    assert.match(prefixed.message, /\(@main, not @refs\/heads\/main\)/);
    for (const path of ['.github/workflows/sub/build.yml', 'ci/build.yml', '.github/workflows/build.json']) {
      const outside = await failure(read({ repository: 'acme/shared', path, ref: 'v1' }));
      assert.equal(outside.status, 422, path);
      assert.match(outside.message, /a \.yml or \.yaml file directly in \.github\/workflows/);
    }

    const none = await failure(remoteWorkflowReader(createRemoteRepositories({ actionsMirrorDir: undefined, ...NO_FORGE }, new ManualClock(), testForgeClients()))({ repository: 'acme/shared', path: SHARED, ref: 'v1' }));
    assert.equal(none.status, 501);
    assert.equal(none.code, 'not_implemented');
    assert.match(none.message, /^uses: acme\/shared\/\.github\/workflows\/build\.yml@v1: no source of remote repositories is configured \(set SVC_ACTIONS_MIRROR_DIR .* or SVC_FORGE_API_URL/);
  });

  it('reads from the forge what the mirror lacks, through the contents API, with tags and branches told apart', async (t) => {
    const m = await mirror(t);
    await m.commit('acme/shared', { files: { [SHARED]: 'from the mirror\n' }, tags: ['v1'] });
    const forge = await startForgeSimulator(t, { token: 'ghp_test' });
    const tool = await forge.repositories.create('acme/tools', { files: { [SHARED]: 'from the forge\n' }, tags: ['v2'] }, { private: true });
    const release = await forge.repositories.commit('acme/tools', { files: { [SHARED]: 'on a branch\n' }, branch: 'release' });
    const repositories = createRemoteRepositories({ actionsMirrorDir: m.dir, forgeConfigured: true, forgeApiUrl: forge.apiUrl, forgeToken: 'ghp_test' }, new ManualClock(), testForgeClients());
    const read = remoteWorkflowReader(repositories);

    assert.equal((await read({ repository: 'acme/shared', path: SHARED, ref: 'v1' })).content, 'from the mirror\n', 'the mirror goes first');
    assert.equal(forge.count(), 0);
    assert.deepEqual(await read({ repository: 'acme/tools', path: SHARED, ref: 'v2' }), { name: `acme/tools/${SHARED}@v2`, content: 'from the forge\n', commit: { ref: 'refs/tags/v2', sha: tool } });
    assert.deepEqual((await read({ repository: 'acme/tools', path: SHARED, ref: 'release' })).commit, { ref: 'refs/heads/release', sha: release });
    assert.deepEqual((await read({ repository: 'acme/tools', path: SHARED, ref: release })).commit, { ref: release, sha: release });
    assert.ok(forge.count('repos/get-content') >= 3 && forge.count('git/get-ref') >= 2, forge.requests.map((r) => `${r.operationId} ${r.path}`).join('\n'));

    const noFile = await failure(read({ repository: 'acme/tools', path: '.github/workflows/gone.yml', ref: 'v2' }));
    assert.equal(noFile.status, 404);
    assert.match(noFile.message, new RegExp(`has no file \\.github/workflows/gone\\.yml$`));
    assert.match(noFile.message, /in the forge at http:\/\/127\.0\.0\.1:\d+ \(SVC_FORGE_API_URL\)/);
    const nobody = await failure(read({ repository: 'acme/gone', path: SHARED, ref: 'v1' }));
    assert.match(nobody.message, /looked up in the mirror at .* \(SVC_ACTIONS_MIRROR_DIR\), then the forge at .* \(SVC_FORGE_API_URL\)\): the mirror has no acme\/gone\.git; the forge at .* has no repository acme\/gone/);
  });
});

const CALLER = `name: CI
on: push
jobs:
  call:
    uses: acme/shared/.github/workflows/build.yml@v1
    with:
      target: linux
    secrets: inherit
  mapped:
    uses: acme/shared/.github/workflows/build.yml@main
    with:
      target: arm
      release: true
    secrets:
      token: \${{ secrets.DEPLOY_TOKEN }}
`;
const BUILD = `on:
  workflow_call:
    inputs:
      target:
        type: string
        required: true
      release:
        type: boolean
        default: false
    secrets:
      token:
        required: false
jobs:
  build:
    name: build \${{ inputs.target }} release=\${{ inputs.release }}
    runs-on: self-hosted
    steps:
      - run: echo building
  test:
    uses: ./.github/workflows/test.yml
  leaf:
    uses: acme/leaf/.github/workflows/leaf.yml@LEAF_SHA
`;
const TEST = `on: workflow_call
jobs:
  unit:
    runs-on: self-hosted
    steps:
      - run: echo test
`;
const LEAF = `on: workflow_call
jobs:
  deep:
    runs-on: self-hosted
    steps:
      - run: echo deep
`;

describe('remote reusable workflows: POST /api/v1/runs', () => {
  it('runs a remote workflow with its inputs, its ./ calls at the same commit and its remote calls; the run keeps each file with its commit, and a re-run reads none again', async (t) => {
    const m = await mirror(t);
    const leaf = await m.commit('acme/leaf', { files: { '.github/workflows/leaf.yml': LEAF } });
    const first = await m.commit('acme/shared', { files: { [SHARED]: BUILD.replace('LEAF_SHA', leaf), '.github/workflows/test.yml': TEST }, tags: ['v1'] });
    const h = await localRunsHost(t, { SVC_ACTIONS_MIRROR_DIR: m.dir });
    const upload = await uploadWorkTree(h, await makeWorkTree(t, { '.github/workflows/remote.yml': CALLER }));
    const submitted = await submitRun(h, { repository: 'acme/app', snapshot: upload.body['sha'], workflow: '.github/workflows/remote.yml' });
    assert.equal(submitted.status, 201, JSON.stringify(submitted.body));
    const runId = (submitted.body['runs'] as { run_id: number }[])[0]?.run_id ?? 0;

    const expected = [
      'call / build linux release=false',
      'call / test / unit',
      'call / leaf / deep',
      'mapped / build arm release=true',
      'mapped / test / unit',
      'mapped / leaf / deep',
    ];
    assert.deepEqual((await getRun(h, runId)).jobs.map((job) => job.name), expected);
    const files = await h.engine.runFiles(runId);
    assert.deepEqual(
      [...files].filter(([key]) => key.startsWith('acme/')).map(([key, file]) => [key, file.commit]).sort(),
      [
        [`acme/leaf/.github/workflows/leaf.yml@${leaf}`, { ref: leaf, sha: leaf }],
        [`acme/shared/${SHARED}@main`, { ref: 'refs/heads/main', sha: first }],
        [`acme/shared/${SHARED}@v1`, { ref: 'refs/tags/v1', sha: first }],
        ['acme/shared/.github/workflows/test.yml@main', { ref: 'refs/heads/main', sha: first }],
        ['acme/shared/.github/workflows/test.yml@v1', { ref: 'refs/tags/v1', sha: first }],
      ],
    );
    assert.equal(await testRunner(h.engine).drain(succeed), 6);
    assert.equal((await getRun(h, runId)).conclusion, 'success');

    // The tag and the branch move on; the re-run still runs what the run was created with.
    await m.commit('acme/shared', { files: { [SHARED]: 'on: workflow_call\njobs:\n  other:\n    runs-on: self-hosted\n    steps:\n      - run: echo other\n' }, tags: ['v1'] });
    assert.ok(await h.engine.rerun(runId, { kind: 'all' }));
    assert.equal(await testRunner(h.engine, 'runner-2').drain(succeed), 6);
    const rerun = await getRun(h, runId);
    assert.deepEqual([rerun.conclusion, rerun.jobs.map((job) => job.name)], ['success', expected]);
    assert.deepEqual(await h.engine.runFiles(runId), files);
  });

  it('404 naming the mirror for a ref it does not have, 422 with the called file line and column for an invalid one', async (t) => {
    const m = await mirror(t);
    await m.commit('acme/shared', { files: { [SHARED]: 'on: workflow_call\njobs:\n  build:\n    runs-on: self-hosted\n    stepz:\n      - run: echo\n' }, tags: ['v1'] });
    const h = await localRunsHost(t, { SVC_ACTIONS_MIRROR_DIR: m.dir });
    const caller = (ref: string) => `on: push\njobs:\n  call:\n    uses: acme/shared/${SHARED}@${ref}\n`;
    const upload = await uploadWorkTree(h, await makeWorkTree(t, { '.github/workflows/missing.yml': caller('nope'), '.github/workflows/invalid.yml': caller('v1') }));
    const sha = upload.body['sha'];

    const missing = await submitRun(h, { repository: 'acme/app', snapshot: sha, workflow: '.github/workflows/missing.yml' });
    assert.equal(missing.status, 404, JSON.stringify(missing.body));
    assert.equal(missing.body['code'], 'reusable_workflow_not_found');
    assert.equal(
      missing.body['message'],
      `uses: acme/shared/${SHARED}@nope: no source has acme/shared at 'nope' (looked up in the mirror at ${m.dir} (SVC_ACTIONS_MIRROR_DIR)): the mirror's acme/shared has no tag, branch or commit 'nope'`,
    );

    const invalid = await submitRun(h, { repository: 'acme/app', snapshot: sha, workflow: '.github/workflows/invalid.yml' });
    assert.equal(invalid.status, 422, JSON.stringify(invalid.body));
    assert.equal(invalid.body['code'], 'invalid_workflow');
    const errors = (invalid.body['details'] as { errors: string[] }).errors;
    assert.ok(
      errors.some((error) => error.startsWith('.github/workflows/invalid.yml:4:') && error.includes(`acme/shared/${SHARED}@v1 (Line: 5, Col: 5)`) && error.includes('stepz')),
      errors.join('\n'),
    );
  });
});
