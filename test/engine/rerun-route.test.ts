import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { engineHost } from '../support/engine-fixture.js';
import { job, runInput } from '../support/run-builder.js';
import { testRunner } from '../support/test-runner.js';

describe('POST /api/v1/runs/{run_id}/rerun', () => {
  it('re-runs the failed jobs of a finished run in place, refusing while it runs', async (t) => {
    const { host, engine, auth } = await engineHost(t);
    const run = await engine.createRun(runInput([job('build'), job('test', { needs: ['build'] }), job('lint')]));
    const rerun = (body: unknown) =>
      host.app.inject({ method: 'POST', url: `/api/v1/runs/${run.id}/rerun`, headers: { ...auth, 'content-type': 'application/json' }, payload: JSON.stringify(body) });

    const busy = await rerun({});
    assert.equal(busy.statusCode, 409);
    assert.equal(busy.json().code, 'run_not_finished');

    const runner = testRunner(engine);
    await runner.drain((a) => ({ outcome: a.job.jobKey === 'build' ? 'failure' : 'success' }));
    const response = await rerun({ failed: true });
    assert.equal(response.statusCode, 202, response.body);
    const body = response.json();
    assert.equal(body.run_attempt, 2);
    const statuses = Object.fromEntries((body.jobs as { name: string; status: string }[]).map((j) => [j.name, j.status]));
    assert.deepEqual(statuses, { build: 'queued', test: 'pending', lint: 'success' });

    await runner.drain(() => ({ outcome: 'success' }));
    assert.equal((await engine.getRun(run.id))?.status, 'success');
    const none = await rerun({ failed: true });
    assert.equal(none.statusCode, 409);
    assert.equal(none.json().code, 'nothing_to_rerun');
    const bad = await rerun({ job_id: 'x' });
    assert.equal(bad.statusCode, 400);
    const missing = await host.app.inject({ method: 'POST', url: '/api/v1/runs/999/rerun', headers: auth });
    assert.equal(missing.statusCode, 404);
  });
});
