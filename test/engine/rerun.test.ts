import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { JobRecord } from '../../core/engine/index.js';
import { ENGINE_BACKENDS, engineFixture } from '../support/engine-fixture.js';
import { job, matrixJob, runInput } from '../support/run-builder.js';
import { succeed, testRunner } from '../support/test-runner.js';

const summary = (jobs: readonly JobRecord[]) => Object.fromEntries(jobs.map((j) => [j.instanceId, `${j.status}#${j.attempt}`]));

for (const backend of ENGINE_BACKENDS) {
  describe(`re-runs on ${backend.kind}`, { skip: backend.skip }, () => {
    it('re-running failed jobs runs them and their dependants again; the rest keep results and outputs', async (t) => {
      const { engine } = await engineFixture(t, backend.kind);
      const run = await engine.createRun(
        runInput([
          job('setup'),
          ...matrixJob('test', [{ os: 'a' }, { os: 'b' }], { failFast: false }, { needs: ['setup'] }),
          job('deploy', { needs: ['test', 'setup'], ifCondition: "needs.setup.outputs.ok == 'yes' && needs.test.result == 'success'" }),
          job('lint'),
        ]),
      );
      const runner = testRunner(engine);
      let failOnce = true;
      await runner.drain((a) => {
        if (a.job.jobKey === 'setup') return { outcome: 'success', outputs: { ok: 'yes' } };
        if (a.job.instanceId === 'test (b)' && failOnce) {
          failOnce = false;
          return { outcome: 'failure' };
        }
        return { outcome: 'success' };
      });
      assert.equal((await engine.getRun(run.id))?.status, 'failure');
      await assert.rejects(engine.rerun(run.id, { kind: 'job', jobId: 999_999 }), /not part of this run/);

      const again = await engine.rerun(run.id, { kind: 'failed' });
      assert.equal(again?.runAttempt, 2);
      await runner.drain(succeed);
      assert.deepEqual(summary(await engine.listJobs(run.id)), {
        setup: 'success#1',
        'test (a)': 'success#1',
        'test (b)': 'success#2',
        deploy: 'success#2',
        lint: 'success#1',
      });
      assert.equal((await engine.getRun(run.id))?.status, 'success');
    });

    it('re-running one job re-runs its dependants with the kept needs outputs', async (t) => {
      const { engine } = await engineFixture(t, backend.kind);
      const run = await engine.createRun(runInput([job('version'), job('build', { needs: ['version'] }), job('publish', { needs: ['build', 'version'], ifCondition: "needs.version.outputs.tag == 'v2'" })]));
      const runner = testRunner(engine);
      await runner.drain((a) => ({ outcome: 'success', ...(a.job.jobKey === 'version' ? { outputs: { tag: 'v2' } } : {}) }));
      const build = (await engine.listJobs(run.id)).find((j) => j.jobKey === 'build');
      assert.ok(build);
      await engine.rerun(run.id, { kind: 'job', jobId: build.id });
      await runner.drain(succeed);
      assert.deepEqual(summary(await engine.listJobs(run.id)), { version: 'success#1', build: 'success#2', publish: 'success#2' });
    });

    it('re-running everything runs every job again; an unfinished run cannot be re-run', async (t) => {
      const { engine } = await engineFixture(t, backend.kind);
      const run = await engine.createRun(runInput([job('a'), job('b', { needs: ['a'] })]));
      await assert.rejects(engine.rerun(run.id, { kind: 'all' }), /only a finished run can be re-run/);
      const runner = testRunner(engine);
      await runner.drain(succeed);
      await assert.rejects(engine.rerun(run.id, { kind: 'failed' }), /no failed jobs to re-run/);
      await engine.rerun(run.id, { kind: 'all' });
      await runner.drain(succeed);
      assert.deepEqual(summary(await engine.listJobs(run.id)), { a: 'success#2', b: 'success#2' });
      assert.equal((await engine.getRun(run.id))?.runAttempt, 2);
    });
  });
}
