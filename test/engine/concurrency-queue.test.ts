/**
 * `concurrency.queue: max` (GitHub, May 2026): up to 100 runs or jobs wait in a concurrency group
 * and start one at a time in the order they began waiting, instead of each newcomer cancelling
 * the one waiting. When 100 already wait, a newcomer is cancelled ("When the queue is full, any
 * additional jobs or workflow runs are canceled"). On every store.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Engine, NewConcurrency, SelectionRequest } from '../../core/engine/index.js';
import { localEvent } from '../../core/workflow/index.js';
import { ENGINE_BACKENDS, engineFixture } from '../support/engine-fixture.js';
import { job, runInput } from '../support/run-builder.js';
import { succeed, testRunner, type Script } from '../support/test-runner.js';

const QUEUED: NewConcurrency = { group: 'deploy-main', cancelInProgress: false, queue: 'max' };

const DEPLOY = `name: Deploy
on: push
concurrency:
  group: Deploy-\${{ github.ref }}
  queue: max
jobs:
  migrate:
    runs-on: self-hosted
    concurrency: { group: db, queue: max }
    steps: [{ run: ./migrate }]
  deploy:
    needs: migrate
    runs-on: self-hosted
    steps: [{ run: ./deploy }]
`;

function push(content: string): SelectionRequest {
  const sha = 'c'.repeat(40);
  return {
    event: { ...localEvent({ repository: 'acme/app', ref: 'refs/heads/main', sha, actor: 'octocat' }), ref: 'refs/heads/main', sha },
    repository: 'acme/app',
    actor: 'octocat',
    trigger: 'local',
    workflows: [{ path: '.github/workflows/deploy.yml', content }],
    serverUrl: 'http://127.0.0.1:9090',
  };
}

/** Runs jobs until none is left; the run ids in the order their jobs started. */
async function drainOrder(engine: Engine, script: Script = succeed): Promise<number[]> {
  const order: number[] = [];
  await testRunner(engine).drain((assignment) => {
    order.push(assignment.run.id);
    return script(assignment);
  });
  return order;
}

for (const backend of ENGINE_BACKENDS) {
  describe(`concurrency queue: max on ${backend.kind}`, { skip: backend.skip }, () => {
    it('runs wait in line instead of replacing each other, and start in the order they came', async (t) => {
      const { engine } = await engineFixture(t, backend.kind);
      const runs = [];
      for (let i = 0; i < 4; i++) runs.push(await engine.createRun(runInput([job('deploy')], { concurrency: QUEUED })));
      assert.deepEqual(runs.map((run) => run.status), ['queued', 'pending', 'pending', 'pending']);
      for (const run of runs.slice(1)) assert.equal((await engine.getRun(run.id))?.reason, 'concurrency');

      assert.deepEqual(await drainOrder(engine), runs.map((run) => run.id));
      for (const run of runs) assert.equal((await engine.getRun(run.id))?.status, 'success');
    });

    it('takes queue: max from the workflow file, for the run and its jobs', async (t) => {
      const { engine } = await engineFixture(t, backend.kind);
      const runs = [];
      for (let i = 0; i < 3; i++) {
        const [result] = await engine.submit(push(DEPLOY));
        assert.equal(result?.outcome, 'created', JSON.stringify(result));
        if (result?.outcome === 'created') runs.push(result.run);
      }
      assert.deepEqual(runs.map((run) => [run.concurrencyGroup, run.concurrencyQueue, run.status]), [
        ['deploy-refs/heads/main', 'max', 'queued'],
        ['deploy-refs/heads/main', 'max', 'pending'],
        ['deploy-refs/heads/main', 'max', 'pending'],
      ]);
      const migrate = (await engine.listJobs(runs[0]?.id ?? 0)).find((j) => j.jobKey === 'migrate');
      assert.deepEqual([migrate?.concurrencyGroup, migrate?.concurrencyQueue], ['db', 'max']);
      assert.deepEqual(await drainOrder(engine), runs.flatMap((run) => [run.id, run.id]));

      const refused = await engine.submit(push(DEPLOY.replace('  queue: max\n', '  queue: max\n  cancel-in-progress: true\n')));
      assert.equal(refused[0]?.outcome, 'invalid');
      if (refused[0]?.outcome === 'invalid') {
        assert.deepEqual(refused[0].errors, [".github/workflows/deploy.yml:5:3: 'queue: max' cannot be combined with 'cancel-in-progress: true'."]);
      }
    });

    it('keeps the rule of one running: a failed or cancelled head hands the group to the next in line', async (t) => {
      const { engine } = await engineFixture(t, backend.kind);
      const first = await engine.createRun(runInput([job('deploy')], { concurrency: QUEUED }));
      const second = await engine.createRun(runInput([job('deploy')], { concurrency: QUEUED }));
      const third = await engine.createRun(runInput([job('deploy')], { concurrency: QUEUED }));
      assert.equal((await engine.cancelRun(second.id))?.status, 'cancelled', 'a waiting run leaves the line when cancelled');
      const order = await drainOrder(engine, (a) => ({ outcome: a.run.id === first.id ? 'failure' : 'success' }));
      assert.deepEqual(order, [first.id, third.id]);
      assert.deepEqual([(await engine.getRun(first.id))?.status, (await engine.getRun(third.id))?.status], ['failure', 'success']);
    });

    it('without queue: max, a newcomer still replaces every run waiting, queued ones included', async (t) => {
      const { engine } = await engineFixture(t, backend.kind);
      const active = await engine.createRun(runInput([job('deploy')], { concurrency: QUEUED }));
      const waiting = [];
      for (let i = 0; i < 2; i++) waiting.push(await engine.createRun(runInput([job('deploy')], { concurrency: QUEUED })));
      const single = await engine.createRun(runInput([job('deploy')], { concurrency: { group: 'deploy-main', cancelInProgress: false } }));
      for (const run of waiting) {
        const now = await engine.getRun(run.id);
        assert.deepEqual([now?.status, now?.reason], ['cancelled', "Canceling since a higher priority waiting request for 'deploy-main' exists"]);
      }
      assert.deepEqual(await drainOrder(engine), [active.id, single.id]);
    });

    it('cancels a newcomer when 100 runs already wait, saying why; the line is untouched', async (t) => {
      const { engine } = await engineFixture(t, backend.kind);
      const active = await engine.createRun(runInput([job('deploy')], { concurrency: QUEUED }));
      const waiting = [];
      for (let i = 0; i < 100; i++) waiting.push(await engine.createRun(runInput([job('deploy')], { concurrency: QUEUED })));
      const extra = await engine.createRun(runInput([job('deploy')], { concurrency: QUEUED }));
      assert.equal(extra.status, 'cancelled');
      assert.equal(extra.reason, "Canceling since the concurrency group 'deploy-main' already has 100 pending runs (queue: max holds at most 100)");
      assert.equal((await engine.listJobs(extra.id))[0]?.status, 'cancelled');
      assert.deepEqual(new Set(await Promise.all(waiting.map(async (run) => (await engine.getRun(run.id))?.status))), new Set(['pending']));

      // Once one leaves the line, there is room again.
      const runner = testRunner(engine);
      const head = await runner.take();
      assert.equal(head?.run.id, active.id);
      await engine.completeJob(head.job.id, runner.identity.runnerId, { outcome: 'success' });
      assert.equal((await engine.getRun(waiting[0]?.id ?? 0))?.status, 'queued');
      assert.equal((await engine.createRun(runInput([job('deploy')], { concurrency: QUEUED }))).status, 'pending');
    });

    it('job-level: jobs start in the order they began waiting on the group, not the order they were created', async (t) => {
      const { engine } = await engineFixture(t, backend.kind);
      const concurrency: NewConcurrency = { group: 'db-migrations', cancelInProgress: false, queue: 'max' };
      const holder = await engine.createRun(runInput([job('migrate', { concurrency })]));
      const runner = testRunner(engine);
      const holding = await runner.take();
      assert.equal(holding?.run.id, holder.id);
      // Created first, but its migrate waits for build before it meets the group.
      const late = await engine.createRun(runInput([job('build'), job('migrate', { needs: ['build'], concurrency })]));
      const early = await engine.createRun(runInput([job('migrate', { concurrency })]));
      const build = await runner.take();
      assert.equal(build?.job.jobKey, 'build');
      await engine.completeJob(build.job.id, runner.identity.runnerId, { outcome: 'success' });
      const migrateOf = async (runId: number) => (await engine.listJobs(runId)).find((j) => j.jobKey === 'migrate');
      assert.deepEqual([(await migrateOf(early.id))?.reason, (await migrateOf(late.id))?.reason], ['concurrency', 'concurrency'], 'both wait, neither cancelled');

      await engine.completeJob(holding.job.id, runner.identity.runnerId, { outcome: 'success' });
      assert.deepEqual(await drainOrder(engine), [early.id, late.id]);
      for (const run of [holder, late, early]) assert.equal((await engine.getRun(run.id))?.status, 'success');
    });

    it('job-level: a 101st waiting job is cancelled with the reason', async (t) => {
      const { engine } = await engineFixture(t, backend.kind);
      const concurrency: NewConcurrency = { group: 'db-migrations', cancelInProgress: false, queue: 'max' };
      const runs = [];
      for (let i = 0; i < 102; i++) runs.push(await engine.createRun(runInput([job('migrate', { concurrency })])));
      const statuses = await Promise.all(runs.map(async (run) => (await engine.listJobs(run.id))[0]));
      assert.equal(statuses[0]?.status, 'queued');
      assert.equal(statuses.slice(1, 101).every((j) => j?.status === 'pending' && j.reason === 'concurrency'), true);
      assert.deepEqual([statuses[101]?.status, statuses[101]?.reason], [
        'cancelled',
        "Canceling since the concurrency group 'db-migrations' already has 100 pending jobs (queue: max holds at most 100)",
      ]);
      assert.equal((await engine.getRun(runs[101]?.id ?? 0))?.status, 'cancelled');
    });
  });
}
