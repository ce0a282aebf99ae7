import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { engineHost } from '../support/engine-fixture.js';
import { operatorConfigEnv } from '../support/operator-config.js';
import { job, runInput } from '../support/run-builder.js';
import { spawnCli } from '../support/spawn-cli.js';
import { succeed, testRunner } from '../support/test-runner.js';

async function svc(args: string[], env: Record<string, string>) {
  const cli = spawnCli('svc', args, env);
  const { code } = await cli.exited;
  return { code, output: cli.output() };
}

describe('svc approve and svc status for a job waiting on its environment', () => {
  it('status says the job waits and how to approve it; approve releases it as admin_override', async (t) => {
    const fixture = await engineHost(t, { env: await operatorConfigEnv(t, '[environment_rules."acme/web".production]\nrequired_reviewers = 1\n') });
    const base = await fixture.host.start();
    const plugins = join(fixture.hostEnv.dir, 'cli-plugins.toml');
    writeFileSync(plugins, '[[plugin]]\nid = "engine"\n');
    const env = { ...fixture.hostEnv.env, SVC_PLUGINS: plugins, SVC_URL: base };
    const { engine } = fixture;
    const run = await engine.createRun(
      runInput([job('build'), ...['a', 'b'].map((os) => job('deploy', { instanceId: `deploy (${os})`, name: `deploy (${os})`, needs: ['build'], environment: { name: 'production', url: null } }))]),
    );
    const runner = testRunner(engine);
    await runner.drain(succeed);
    const [deployA, deployB] = (await engine.listJobs(run.id)).filter((j) => j.jobKey === 'deploy');
    assert.ok(deployA && deployB);

    const status = await svc(['status', String(run.id)], env);
    assert.equal(status.code, 0, status.output);
    assert.match(status.output, new RegExp(`deploy \\(a\\)\\s+${deployA.id}\\s+pending\\s+-\\s+-\\s+-\\s+waiting for approval \\(environment production\\): svc approve ${run.id} --job ${deployA.id}\\n`));

    const ambiguous = await svc(['approve', String(run.id), '--job', 'deploy'], env);
    assert.equal(ambiguous.code, 1);
    assert.equal(ambiguous.output, `svc approve: 'deploy' names 2 jobs of run ${run.id}; name one by its id (deploy (a) (id ${deployA.id}), deploy (b) (id ${deployB.id}))\n`);
    const unknown = await svc(['approve', String(run.id), '--job', 'ship'], env);
    assert.equal(unknown.output, `svc approve: run ${run.id} has no job 'ship' (waiting for approval: deploy (a) (id ${deployA.id}), deploy (b) (id ${deployB.id}))\n`);
    const notWaiting = await svc(['approve', String(run.id), '--job', 'build'], env);
    assert.equal(notWaiting.code, 1);
    assert.match(notWaiting.output, /^svc approve: job \d+ is not waiting for an environment approval \(it is success\) \(HTTP 409\)\n$/);

    const byName = await svc(['approve', String(run.id), '--job', 'deploy (a)'], env);
    assert.equal(byName.code, 0, byName.output);
    assert.equal(byName.output, `approved job deploy (a) (id ${deployA.id}) of run ${run.id} for environment production (admin_override); it is queued now\n`);
    const byKey = await svc(['approve', String(run.id), '--job', 'deploy'], env);
    assert.equal(byKey.code, 0, 'the one instance still waiting is the one meant');
    assert.match(byKey.output, new RegExp(`^approved job deploy \\(b\\) \\(id ${deployB.id}\\)`));

    await runner.drain(succeed);
    const done = await svc(['status', String(run.id)], env);
    assert.match(done.output, /^Run \d+: CI #1: success/);
    assert.match(done.output, /deploy \(a\): approved for environment production as admin_override by system at 2030-01-01T00:00:00\.000Z/);
  });
});
