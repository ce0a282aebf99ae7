import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Completion, JobRecord } from '../../core/engine/index.js';
import { ENGINE_BACKENDS, engineFixture } from '../support/engine-fixture.js';
import { job, matrixJob, runInput } from '../support/run-builder.js';
import { succeed, testRunner, type Script } from '../support/test-runner.js';

const byKey = (outcomes: Record<string, Completion['outcome']>): Script => (a) => ({ outcome: outcomes[a.job.instanceId] ?? 'success' });
const statuses = (jobs: readonly JobRecord[]) => Object.fromEntries(jobs.map((j) => [j.instanceId, j.status]));

for (const backend of ENGINE_BACKENDS) {
  describe(`scheduler on ${backend.kind}`, { skip: backend.skip }, () => {
    it('runs a needs chain in order and ends the run with success', async (t) => {
      const { engine } = await engineFixture(t, backend.kind);
      const run = await engine.createRun(runInput([job('c', { needs: ['b'] }), job('a'), job('b', { needs: ['a'] })]));
      assert.equal(run.status, 'queued');
      const runner = testRunner(engine);
      assert.equal(await runner.drain(succeed), 3);
      assert.deepEqual(runner.taken, ['a', 'b', 'c']);
      const done = await engine.getRun(run.id);
      assert.equal(done?.status, 'success');
      assert.equal(done?.conclusion, 'success');
      const types = (await engine.events(run.id)).map((e) => e.event.type);
      assert.equal(types[types.length - 1], 'run_status');
      assert.ok(types.includes('run_accepted') && types.includes('job_completed'));
    });

    it('skips dependants of a failed job and fails the run; always() still runs', async (t) => {
      const { engine } = await engineFixture(t, backend.kind);
      const run = await engine.createRun(
        runInput([job('build'), job('test', { needs: ['build'] }), job('report', { needs: ['test'], ifCondition: 'always()' }), job('deploy', { needs: ['test'] })]),
      );
      const runner = testRunner(engine);
      await runner.drain(byKey({ build: 'failure' }));
      assert.deepEqual(runner.taken, ['build', 'report']);
      assert.deepEqual(statuses(await engine.listJobs(run.id)), { build: 'failure', test: 'skipped', report: 'success', deploy: 'skipped' });
      assert.equal((await engine.getRun(run.id))?.status, 'failure');
    });

    it('gives dependants the outputs and results of their needs', async (t) => {
      const { engine } = await engineFixture(t, backend.kind);
      const run = await engine.createRun(
        runInput([
          job('version'),
          job('release', { needs: ['version'], ifCondition: "needs.version.outputs.tag == 'v1.2.3' && needs.version.result == 'success'" }),
          job('never', { needs: ['version'], ifCondition: "needs.version.outputs.tag == 'v9'" }),
        ]),
      );
      const runner = testRunner(engine);
      await runner.drain((a) => ({ outcome: 'success', ...(a.job.jobKey === 'version' ? { outputs: { tag: 'v1.2.3' } } : {}) }));
      assert.deepEqual(statuses(await engine.listJobs(run.id)), { version: 'success', release: 'success', never: 'skipped' });
      assert.equal((await engine.getRun(run.id))?.status, 'success');
    });

    it('an if: that cannot be evaluated fails the job with the expression error', async (t) => {
      const { engine } = await engineFixture(t, backend.kind);
      const run = await engine.createRun(runInput([job('a', { ifCondition: 'secrets.TOKEN' })]));
      const [failed] = await engine.listJobs(run.id);
      assert.equal(failed?.status, 'failure');
      assert.match(failed?.reason ?? '', /Unrecognized named-value: 'secrets'/);
      assert.equal((await engine.getRun(run.id))?.status, 'failure');
    });

    it('continue-on-error: a failed job does not fail the run or skip its dependants', async (t) => {
      const { engine } = await engineFixture(t, backend.kind);
      const run = await engine.createRun(runInput([job('flaky', { continueOnError: true }), job('next', { needs: ['flaky'] })]));
      await testRunner(engine).drain(byKey({ flaky: 'failure' }));
      assert.deepEqual(statuses(await engine.listJobs(run.id)), { flaky: 'failure', next: 'success' });
      assert.equal((await engine.getRun(run.id))?.status, 'success');
    });

    it('fail-fast cancels the unfinished siblings of a failed matrix instance', async (t) => {
      const { engine } = await engineFixture(t, backend.kind);
      const combos = [{ os: 'a' }, { os: 'b' }, { os: 'c' }];
      const run = await engine.createRun(runInput(matrixJob('test', combos)));
      const r1 = testRunner(engine, 'r1');
      const r2 = testRunner(engine, 'r2');
      const first = await r1.take();
      const second = await r2.take();
      assert.ok(first && second);
      await engine.completeJob(first.job.id, r1.identity.runnerId, { outcome: 'failure' });
      const jobs = await engine.listJobs(run.id);
      assert.equal(jobs.find((j) => j.id === second.job.id)?.cancelRequested, true, 'the running sibling is asked to stop');
      assert.equal(jobs.find((j) => j.instanceId === 'test (c)')?.status, 'cancelled', 'the queued sibling is cancelled');
      await engine.completeJob(second.job.id, r2.identity.runnerId, { outcome: 'cancelled' });
      assert.equal((await engine.getRun(run.id))?.status, 'failure');
    });

    it('without fail-fast the siblings run on', async (t) => {
      const { engine } = await engineFixture(t, backend.kind);
      const run = await engine.createRun(runInput(matrixJob('test', [{ os: 'a' }, { os: 'b' }], { failFast: false })));
      await testRunner(engine).drain(byKey({ 'test (a)': 'failure' }));
      assert.deepEqual(statuses(await engine.listJobs(run.id)), { 'test (a)': 'failure', 'test (b)': 'success' });
    });

    it('max-parallel holds instances until a slot frees', async (t) => {
      const { engine } = await engineFixture(t, backend.kind);
      const run = await engine.createRun(runInput(matrixJob('test', [{ n: '1' }, { n: '2' }, { n: '3' }], { maxParallel: 1 })));
      const jobs = await engine.listJobs(run.id);
      assert.deepEqual(jobs.map((j) => j.status), ['queued', 'pending', 'pending']);
      const runner = testRunner(engine);
      const first = await runner.take();
      assert.ok(first);
      assert.equal(await runner.take(), undefined, 'nothing else is queued while one runs');
      await engine.completeJob(first.job.id, runner.identity.runnerId, { outcome: 'success' });
      assert.equal(await runner.drain(succeed), 2);
      assert.equal((await engine.getRun(run.id))?.status, 'success');
    });

    it('a runner only gets jobs whose labels it has (case-insensitive)', async (t) => {
      const { engine } = await engineFixture(t, backend.kind);
      const run = await engine.createRun(runInput([job('gpu', { runsOn: ['self-hosted', 'GPU'] }), job('plain', { runsOn: ['Linux'] })]));
      const plain = testRunner(engine, 'plain', ['self-hosted', 'linux', 'x64']);
      await plain.drain(succeed);
      assert.deepEqual(plain.taken, ['plain']);
      const gpu = testRunner(engine, 'gpu', ['self-hosted', 'linux', 'gpu']);
      await gpu.drain(succeed);
      assert.deepEqual(gpu.taken, ['gpu']);
      assert.equal((await engine.getRun(run.id))?.status, 'success');
    });

    it('two runners racing for one job: exactly one gets it', async (t) => {
      const { engine } = await engineFixture(t, backend.kind);
      await engine.createRun(runInput([job('only')]));
      const results = await Promise.all(Array.from({ length: 8 }, (_, i) => testRunner(engine, `r${i}`).take()));
      assert.equal(results.filter(Boolean).length, 1);
    });

    it('cancelling a run: queued jobs cancelled, running ones asked to stop, always() jobs still run', async (t) => {
      const { engine } = await engineFixture(t, backend.kind);
      const run = await engine.createRun(
        runInput([job('long'), job('other'), job('after', { needs: ['long'] }), job('cleanup', { needs: ['long'], ifCondition: 'always()' })]),
      );
      const runner = testRunner(engine);
      const long = await runner.take();
      assert.ok(long);
      await engine.cancelRun(run.id);
      const renewed = await engine.renewJob(long.job.id, runner.identity.runnerId, 60_000);
      assert.deepEqual([renewed.held, renewed.cancelRequested], [true, true]);
      await engine.completeJob(long.job.id, runner.identity.runnerId, { outcome: 'cancelled' });
      await runner.drain(succeed);
      assert.deepEqual(statuses(await engine.listJobs(run.id)), { long: 'cancelled', other: 'cancelled', after: 'cancelled', cleanup: 'success' });
      assert.equal((await engine.getRun(run.id))?.status, 'cancelled');
    });

    it('a job past timeout-minutes is asked to stop and then fails with the timeout', async (t) => {
      const { engine, clock } = await engineFixture(t, backend.kind);
      const run = await engine.createRun(runInput([job('slow', { timeoutMinutes: 1 })]));
      const runner = testRunner(engine);
      const slow = await runner.take();
      assert.ok(slow);
      clock.advance(30_000);
      assert.equal((await engine.renewJob(slow.job.id, runner.identity.runnerId, 60_000)).cancelRequested, false);
      clock.advance(31_000);
      assert.equal((await engine.sweep()).timedOut, 1);
      assert.equal((await engine.renewJob(slow.job.id, runner.identity.runnerId, 60_000)).cancelRequested, true);
      await engine.completeJob(slow.job.id, runner.identity.runnerId, { outcome: 'cancelled' });
      const [done] = await engine.listJobs(run.id);
      assert.equal(done?.status, 'failure');
      assert.match(done?.reason ?? '', /exceeded the maximum execution time of 1 minutes/);
    });

    it('a job whose runner stops renewing fails when the lease expires', async (t) => {
      const { engine, clock } = await engineFixture(t, backend.kind);
      const run = await engine.createRun(runInput([job('a'), job('b', { needs: ['a'] })]));
      assert.ok(await testRunner(engine).take());
      clock.advance(61_000);
      assert.equal((await engine.sweep()).lostJobs, 1);
      assert.deepEqual(statuses(await engine.listJobs(run.id)), { a: 'failure', b: 'skipped' });
      assert.match((await engine.listJobs(run.id))[0]?.reason ?? '', /lost communication with the server/);
    });

    it('after a restart, a running job whose lease lapsed while the server was down gets a reconnect grace before it is lost', async (t) => {
      const { engine, clock } = await engineFixture(t, backend.kind);
      const run = await engine.createRun(runInput([job('a')]));
      const runner = testRunner(engine);
      const taken = await runner.take();
      assert.ok(taken);
      // The server was down for longer than the lease; it starts again.
      clock.advance(120_000);
      assert.equal(await engine.grantReconnectGrace(90_000), 1);
      assert.equal((await engine.sweep()).lostJobs, 0, 'the runner may still be running the job: it gets time to renew');
      clock.advance(60_000);
      assert.equal((await engine.renewJob(taken.job.id, runner.identity.runnerId, 90_000)).held, true, 'its renewal after the restart holds');
      clock.advance(80_000);
      assert.equal((await engine.sweep()).lostJobs, 0);
      assert.equal((await engine.listJobs(run.id))[0]?.status, 'in_progress');
      // A runner that never comes back: lost once the grace (or its last lease) is over.
      clock.advance(11_000);
      assert.equal((await engine.sweep()).lostJobs, 1);
      assert.match((await engine.listJobs(run.id))[0]?.reason ?? '', /lost communication with the server/);
      assert.equal(await engine.grantReconnectGrace(90_000), 0, 'a finished job gets no grace');
    });

    it('concurrency: a newer run waits, replaces the waiting one, and cancel-in-progress stops the active one', async (t) => {
      const { engine } = await engineFixture(t, backend.kind);
      const group = { group: 'deploy-main', cancelInProgress: false };
      const first = await engine.createRun(runInput([job('deploy')], { concurrency: group }));
      const second = await engine.createRun(runInput([job('deploy')], { concurrency: group }));
      const third = await engine.createRun(runInput([job('deploy')], { concurrency: group }));
      assert.equal(first.status, 'queued');
      assert.equal(second.status, 'pending');
      assert.equal((await engine.getRun(second.id))?.status, 'cancelled', 'the waiting run is replaced by the newer one');
      assert.equal(third.status, 'pending');
      const runner = testRunner(engine);
      await runner.drain(succeed);
      assert.equal((await engine.getRun(first.id))?.status, 'success');
      assert.equal((await engine.getRun(third.id))?.status, 'success', 'the waiting run starts when the group frees');

      const fourth = await engine.createRun(runInput([job('deploy')], { concurrency: group }));
      const running = await runner.take();
      assert.equal(running?.run.id, fourth.id);
      const fifth = await engine.createRun(runInput([job('deploy')], { concurrency: { ...group, cancelInProgress: true } }));
      assert.equal(fifth.status, 'pending');
      assert.equal((await engine.renewJob(running.job.id, runner.identity.runnerId, 60_000)).cancelRequested, true);
      await engine.completeJob(running.job.id, runner.identity.runnerId, { outcome: 'cancelled' });
      assert.equal((await engine.getRun(fifth.id))?.status, 'queued');
    });

    it('job-level concurrency serialises jobs of different runs', async (t) => {
      const { engine } = await engineFixture(t, backend.kind);
      const concurrency = { group: 'db-migrations', cancelInProgress: false };
      const a = await engine.createRun(runInput([job('migrate', { concurrency })]));
      const b = await engine.createRun(runInput([job('migrate', { concurrency })]));
      assert.equal((await engine.listJobs(a.id))[0]?.status, 'queued');
      assert.equal((await engine.listJobs(b.id))[0]?.status, 'pending');
      await testRunner(engine).drain(succeed);
      assert.equal((await engine.getRun(b.id))?.status, 'success');
    });
  });
}

for (const backend of ENGINE_BACKENDS) {
  describe(`releasing a claimed job on ${backend.kind}`, { skip: backend.skip }, () => {
    it('puts it back in the queue for another runner; only its holder may', async (t) => {
      const { engine } = await engineFixture(t, backend.kind);
      const run = await engine.createRun(runInput([job('a')]));
      const first = testRunner(engine, 'first');
      const claimed = await first.take();
      assert.ok(claimed);
      assert.equal(await engine.releaseJob(claimed.job.id, 'someone-else'), false);
      assert.equal(await engine.releaseJob(claimed.job.id, first.identity.runnerId), true);
      assert.equal(await engine.releaseJob(claimed.job.id, first.identity.runnerId), false, 'not held any more');
      const second = testRunner(engine, 'second');
      await second.drain(succeed);
      assert.deepEqual(second.taken, ['a']);
      assert.equal((await engine.getRun(run.id))?.status, 'success');
    });
  });
}
