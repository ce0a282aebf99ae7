import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import type { SelectionRequest } from '../../core/engine/index.js';
import { localEvent, type WorkflowLoader } from '../../core/workflow/index.js';
import { ENGINE_BACKENDS, engineFixture } from '../support/engine-fixture.js';
import { succeed, testRunner } from '../support/test-runner.js';

const ROOT = new URL('../fixtures/workflows/pipeline/', import.meta.url);
const read = (path: string) => readFileSync(new URL(path, ROOT), 'utf8');
const loader: WorkflowLoader = {
  read: async (ref) => (ref.repository === undefined ? { name: ref.path.replace(/^\.\//, ''), content: read(ref.path.replace(/^\.\//, '')) } : undefined),
};
const SHA = 'b'.repeat(40);

function request(overrides: Partial<SelectionRequest> = {}, ref = 'refs/heads/main'): SelectionRequest {
  return {
    event: { ...localEvent({ repository: 'acme/app', ref, sha: SHA, actor: 'octocat' }), ref, sha: SHA },
    repository: 'acme/app',
    actor: 'octocat',
    trigger: 'local',
    workflows: [{ path: '.github/workflows/ci.yml', content: read('.github/workflows/ci.yml') }],
    loader,
    serverUrl: 'http://127.0.0.1:9090',
    ...overrides,
  };
}

const everywhere = ['ubuntu-latest', 'windows-latest', 'macos-latest'];

for (const backend of ENGINE_BACKENDS) {
  describe(`submitting an event on ${backend.kind}`, { skip: backend.skip }, () => {
    it('plans the workflow into a run (matrix, reusable jobs, needs, run-name, concurrency) and runs it to the end', async (t) => {
      const { engine } = await engineFixture(t, backend.kind);
      const [result] = await engine.submit(request());
      assert.equal(result?.outcome, 'created');
      if (result?.outcome !== 'created') return;
      const run = result.run;
      assert.equal(run.displayTitle, 'CI for main');
      assert.equal(run.concurrencyGroup, 'ci-refs/heads/main');
      assert.match(run.workflowId, /^wf_[0-9a-f]{20}$/);
      const jobs = await engine.listJobs(run.id);
      assert.deepEqual(
        jobs.map((j) => [j.instanceId, j.status]),
        [
          ['lint', 'queued'],
          ['test[0]', 'queued'],
          ['test[1]', 'queued'],
          ['test[2]', 'queued'],
          ['test[3]', 'queued'],
          ['test[4]', 'queued'],
          ['build/compile', 'pending'],
          ['build/package', 'pending'],
          ['publish', 'pending'],
        ],
      );
      assert.deepEqual(jobs.find((j) => j.instanceId === 'test[2]')?.runsOn, ['windows-latest']);
      const order: string[] = [];
      for (const os of everywhere) {
        const runner = testRunner(engine, os, [os]);
        await runner.drain(succeed);
        order.push(...runner.taken);
      }
      await testRunner(engine, 'ubuntu-2', ['ubuntu-latest']).drain(succeed);
      const final = await engine.listJobs(run.id);
      assert.ok(final.every((j) => j.status === 'success'), JSON.stringify(final.map((j) => [j.instanceId, j.status])));
      assert.equal((await engine.getRun(run.id))?.status, 'success');
    });

    it('a push to a branch the filters leave out creates no run', async (t) => {
      const { engine } = await engineFixture(t, backend.kind);
      const [result] = await engine.submit(request({}, 'refs/heads/feature'));
      assert.equal(result?.outcome, 'not_triggered');
    });

    it('--job keeps the job and what it needs', async (t) => {
      const { engine } = await engineFixture(t, backend.kind);
      const [result] = await engine.submit(request({ job: 'build' }));
      assert.equal(result?.outcome, 'created');
      if (result?.outcome !== 'created') return;
      const keys = [...new Set((await engine.listJobs(result.run.id)).map((j) => j.jobKey))];
      assert.deepEqual(keys, ['lint', 'test', 'build/compile', 'build/package']);
    });

    it('an invalid workflow file becomes a failed run carrying its errors with file:line:col', async (t) => {
      const { engine } = await engineFixture(t, backend.kind);
      const content = 'on: push\njobs:\n  a:\n    runs-on: ubuntu-latest\n    steps:\n      - run: echo ${{ github.ref\n';
      const [result] = await engine.submit(request({ workflows: [{ path: '.github/workflows/bad.yml', content }] }));
      assert.equal(result?.outcome, 'invalid');
      if (result?.outcome !== 'invalid') return;
      assert.match(result.errors[0] ?? '', /^\.github\/workflows\/bad\.yml:6:\d+: /);
      assert.equal(result.run?.status, 'failure');
      assert.match(result.run?.reason ?? '', /^Invalid workflow file: /);
    });
  });
}

const DYNAMIC = `on: push
jobs:
  discover:
    runs-on: self-hosted
    outputs:
      targets: \${{ steps.list.outputs.targets }}
      pool: \${{ steps.list.outputs.pool }}
    steps:
      - id: list
        run: echo "targets=[\\"a\\",\\"b\\",\\"c\\"]" >> "$GITHUB_OUTPUT"
  build:
    needs: discover
    runs-on: \${{ needs.discover.outputs.pool }}
    strategy:
      matrix:
        target: \${{ fromJSON(needs.discover.outputs.targets) }}
    steps:
      - run: echo \${{ matrix.target }}
  report:
    needs: build
    runs-on: self-hosted
    steps:
      - run: echo done
`;

for (const backend of ENGINE_BACKENDS) {
  describe(`jobs whose fields read needs, on ${backend.kind}`, { skip: backend.skip }, () => {
    it('a matrix from a needs output is expanded when the job it needs finishes', async (t) => {
      const { engine } = await engineFixture(t, backend.kind);
      const [result] = await engine.submit(request({ workflows: [{ path: '.github/workflows/dynamic.yml', content: DYNAMIC }] }));
      if (result?.outcome !== 'created') return assert.fail(JSON.stringify(result));
      const before = await engine.listJobs(result.run.id);
      assert.deepEqual(before.map((j) => [j.jobKey, j.status, j.deferred]), [['discover', 'queued', false], ['build', 'pending', true], ['report', 'pending', false]]);
      const runner = testRunner(engine, 'gpu-runner', ['self-hosted', 'gpu']);
      await runner.drain((a) => ({ outcome: 'success', ...(a.job.jobKey === 'discover' ? { outputs: { targets: '["a","b","c"]', pool: 'gpu' } } : {}) }));
      const after = await engine.listJobs(result.run.id);
      assert.deepEqual(
        after.map((j) => [j.instanceId, j.name, j.runsOn.join(','), j.status]),
        [
          ['discover', 'discover', 'self-hosted', 'success'],
          ['report', 'report', 'self-hosted', 'success'],
          ['build[0]', 'build (a)', 'gpu', 'success'],
          ['build[1]', 'build (b)', 'gpu', 'success'],
          ['build[2]', 'build (c)', 'gpu', 'success'],
        ],
      );
      assert.deepEqual(runner.taken.slice(0, 1), ['discover']);
      assert.equal(runner.taken[runner.taken.length - 1], 'report', 'report waits for every expanded instance');
      assert.equal((await engine.getRun(result.run.id))?.status, 'success');
    });

    it('an expansion that fails (bad JSON in the output) fails the job with the reason', async (t) => {
      const { engine } = await engineFixture(t, backend.kind);
      const [result] = await engine.submit(request({ workflows: [{ path: '.github/workflows/dynamic.yml', content: DYNAMIC }] }));
      if (result?.outcome !== 'created') return assert.fail(JSON.stringify(result));
      await testRunner(engine).drain((a) => ({ outcome: 'success', ...(a.job.jobKey === 'discover' ? { outputs: { targets: 'not json', pool: 'x' } } : {}) }));
      const build = (await engine.listJobs(result.run.id)).find((j) => j.jobKey === 'build');
      assert.equal(build?.status, 'failure');
      assert.match(build?.reason ?? '', /fromJSON|JSON/i);
      assert.equal((await engine.getRun(result.run.id))?.status, 'failure');
    });
  });
}

const CALLS_REMOTE = `on: push
jobs:
  call:
    uses: acme/shared/.github/workflows/fan.yml@v1
`;
const FAN = `on: workflow_call
jobs:
  discover:
    runs-on: self-hosted
    outputs:
      targets: \${{ steps.s.outputs.targets }}
    steps:
      - id: s
        run: echo
  build:
    needs: discover
    runs-on: self-hosted
    strategy:
      matrix:
        target: \${{ fromJSON(needs.discover.outputs.targets) }}
    steps:
      - run: echo \${{ matrix.target }}
`;
const SHARED_SHA = 'c'.repeat(40);

for (const backend of ENGINE_BACKENDS) {
  describe(`called workflows of other repositories, on ${backend.kind}`, { skip: backend.skip }, () => {
    it('are kept with the commit they were read at, and a job of theirs waiting for needs is expanded from the kept file', async (t) => {
      const { engine } = await engineFixture(t, backend.kind);
      const asked: string[] = [];
      const remote: SelectionRequest['loader'] = {
        read: async (ref) => {
          asked.push(`${ref.repository ?? '.'}/${ref.path}@${ref.ref ?? ''}`);
          return ref.repository === 'acme/shared' ? { name: `acme/shared/${ref.path}@v1`, content: FAN, commit: { ref: 'refs/tags/v1', sha: SHARED_SHA } } : undefined;
        },
      };
      const [result] = await engine.submit(request({ workflows: [{ path: '.github/workflows/ci.yml', content: CALLS_REMOTE }], loader: remote }));
      if (result?.outcome !== 'created') return assert.fail(JSON.stringify(result));
      assert.deepEqual(asked, ['acme/shared/.github/workflows/fan.yml@v1']);
      const files = await engine.runFiles(result.run.id);
      assert.deepEqual(files.get('acme/shared/.github/workflows/fan.yml@v1'), { content: FAN, commit: { ref: 'refs/tags/v1', sha: SHARED_SHA } });
      assert.deepEqual(files.get('.github/workflows/ci.yml'), { content: CALLS_REMOTE });

      await testRunner(engine).drain((a) => ({ outcome: 'success', ...(a.job.jobKey === 'call/discover' ? { outputs: { targets: '["x","y"]' } } : {}) }));
      const jobs = await engine.listJobs(result.run.id);
      assert.deepEqual(
        jobs.map((j) => [j.instanceId, j.status]),
        [
          ['call/discover', 'success'],
          ['call/build[0]', 'success'],
          ['call/build[1]', 'success'],
        ],
      );
      assert.equal((await engine.getRun(result.run.id))?.status, 'success');
    });
  });
}
