import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { engineHost } from '../support/engine-fixture.js';
import { operatorConfigEnv } from '../support/operator-config.js';
import { job, runInput } from '../support/run-builder.js';
import { succeed, testRunner } from '../support/test-runner.js';

const RULES = '[environment_rules."acme/web".production]\nrequired_reviewers = 1\n';

describe('POST /api/v1/runs/{run_id}/jobs/{job_id}/approve', () => {
  it('releases a job waiting for its environment, recording admin_override; 401, 404 and 409 otherwise', async (t) => {
    const { host, engine, auth } = await engineHost(t, { env: await operatorConfigEnv(t, RULES) });
    const run = await engine.createRun(runInput([job('build'), job('deploy', { needs: ['build'], environment: { name: 'production', url: 'https://example.test' } })]));
    const runner = testRunner(engine);
    await runner.drain(succeed);
    const deploy = (await engine.listJobs(run.id)).find((j) => j.jobKey === 'deploy')!;
    const build = (await engine.listJobs(run.id)).find((j) => j.jobKey === 'build')!;
    const approve = (runId: number, jobId: number, headers: Record<string, string> = auth) => host.app.inject({ method: 'POST', url: `/api/v1/runs/${runId}/jobs/${jobId}/approve`, headers });

    const view = (await host.app.inject({ method: 'GET', url: `/api/v1/runs/${run.id}`, headers: auth })).json();
    const waiting = view.jobs.find((j: { job_key: string }) => j.job_key === 'deploy');
    assert.deepEqual([waiting.status, waiting.reason], ['pending', 'environment_approval']);
    assert.deepEqual(waiting.environment, { name: 'production', url: 'https://example.test', wait_until: null, admin_override: null });

    assert.equal((await approve(run.id, deploy.id, {})).statusCode, 401, 'the system bearer is required');
    const unknownJob = await approve(run.id, 999);
    assert.deepEqual([unknownJob.statusCode, unknownJob.json().code], [404, 'job_not_found']);
    assert.equal((await approve(999, deploy.id)).statusCode, 404);
    const notWaiting = await approve(run.id, build.id);
    assert.deepEqual([notWaiting.statusCode, notWaiting.json().code], [409, 'job_not_waiting']);
    assert.match(notWaiting.json().message, /job \d+ is not waiting for an environment approval \(it is success\)/);

    const approved = await approve(run.id, deploy.id);
    assert.equal(approved.statusCode, 200, approved.body);
    const body = approved.json();
    assert.equal(body.status, 'queued');
    assert.deepEqual(body.environment.admin_override, { by: 'system', at: '2030-01-01T00:00:00.000Z' });
    assert.equal((await approve(run.id, deploy.id)).statusCode, 409, 'approving twice finds nothing waiting');

    await runner.drain(succeed);
    assert.equal((await engine.getRun(run.id))?.status, 'success');
  });

  it('a rule asking for more than one reviewer stops the start', async (t) => {
    const config = await operatorConfigEnv(t, '[environment_rules."acme/web".production]\nrequired_reviewers = 2\n');
    await assert.rejects(engineHost(t, { env: config }), /required_reviewers must be at most 1; got 2/);
  });
});
