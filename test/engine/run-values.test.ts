/**
 * Secrets and variables of a run (issue 17) on each store: the secrets plugin's rows and the
 * engine's tables on the same database. What a run sees at creation and what a job sees (run-
 * supplied > environment > repository > global), `vars` kept with the run for planning and
 * job-level `if:`, run-supplied values sealed with the run and erased when it ends, and a re-run
 * that names the values it would need.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { runSuppliedLabel, type SelectionRequest } from '../../core/engine/index.js';
import { localEvent } from '../../core/workflow/index.js';
import { createJobValues, createSecretStore, secretsMigrations } from '../../plugins/secrets/index.js';
import { sqlRows } from '../../plugins/secrets/sql-rows.js';
import { generateSecretsKey } from '../../plugins/secrets/sealing.js';
import { ENGINE_BACKENDS, engineFixture } from '../support/engine-fixture.js';
import { succeed, testRunner } from '../support/test-runner.js';

const SHA = 'c'.repeat(40);
const WORKFLOW = `
on: push
jobs:
  build:
    runs-on: \${{ vars.RUNNER }}
    steps: [{ run: 'echo \${{ secrets.TOKEN }}' }]
  deploy:
    if: vars.DEPLOY == 'yes'
    runs-on: self-hosted
    steps: [{ run: deploy }]
  never:
    if: vars.DEPLOY == 'no'
    runs-on: self-hosted
    steps: [{ run: never }]
`;

function request(overrides: Partial<SelectionRequest>): SelectionRequest {
  return {
    event: { ...localEvent({ repository: 'acme/app', ref: 'refs/heads/main', sha: SHA, actor: 'octo' }), ref: 'refs/heads/main', sha: SHA },
    repository: 'acme/app',
    actor: 'octo',
    trigger: 'local',
    workflows: [{ path: '.github/workflows/ci.yml', content: WORKFLOW }],
    serverUrl: 'http://127.0.0.1:9090',
    ...overrides,
  };
}

for (const backend of ENGINE_BACKENDS) {
  describe(`run values on ${backend.kind}`, { skip: backend.skip }, () => {
    it('resolves by precedence, plans with vars, seals run-supplied values, erases them at the end and refuses a re-run naming them', async (t) => {
      const { engine, database, migrator } = await engineFixture(t, backend.kind);
      const migrated = await migrator.migrate('secrets', secretsMigrations);
      if (migrated.error) throw migrated.error;
      const key = generateSecretsKey();
      const store = createSecretStore({ rows: sqlRows(database), key, clock: { now: () => 1 } });
      const values = createJobValues(async () => ({ store, key }));
      await store.set('secret', {}, 'TOKEN', 'global-token');
      await store.set('secret', { repository: 'acme/app' }, 'TOKEN', 'repo-token');
      await store.set('secret', { repository: 'acme/app', environment: 'prod' }, 'TOKEN', 'prod-token');
      await store.set('secret', { repository: 'acme/app', environment: 'prod' }, 'ONLY_PROD', 'p');
      await store.set('secret', { repository: 'other/app' }, 'OTHER', 'o');
      await store.set('var', {}, 'RUNNER', 'global-runner');
      await store.set('var', { repository: 'acme/app' }, 'RUNNER', 'self-hosted');
      await store.set('var', { repository: 'acme/app', environment: 'prod' }, 'RUNNER', 'prod-runner');

      // At creation: no environment; run-supplied values on top.
      const supplied = { secrets: { SUPPLIED: 'line one\nline two' }, vars: { DEPLOY: 'yes' } };
      const atCreation = await values.forRun('acme/app', supplied);
      assert.deepEqual(atCreation, { secretNames: ['SUPPLIED', 'TOKEN'], vars: { RUNNER: 'self-hosted', DEPLOY: 'yes' } });
      // For a job: supplied > environment > repository > global.
      assert.deepEqual(await values.forJob({ repository: 'acme/app', environment: 'prod' }, { secrets: { TOKEN: 'run-token' }, vars: {} }), {
        secrets: { TOKEN: 'run-token', ONLY_PROD: 'p' },
        vars: { RUNNER: 'prod-runner' },
      });
      assert.deepEqual((await values.forJob({ repository: 'acme/app' })).secrets, { TOKEN: 'repo-token' });

      const sealed = await values.seal(runSuppliedLabel('acme/app'), JSON.stringify(supplied));
      assert.ok(!sealed.includes('line one') && !sealed.includes(Buffer.from('line one').toString('base64')));
      await assert.rejects(values.open(runSuppliedLabel('other/app'), sealed), { code: 'secret_damaged' });

      const [result] = await engine.submit(request({ ...atCreation, supplied: { secretNames: ['SUPPLIED'], varNames: ['DEPLOY'], sealed } }));
      assert.equal(result?.outcome, 'created');
      if (result?.outcome !== 'created') return;
      const run = result.run;
      assert.deepEqual(run.vars, { RUNNER: 'self-hosted', DEPLOY: 'yes' });
      assert.deepEqual(run.secretNames, ['SUPPLIED', 'TOKEN']);
      const kept = await engine.runSuppliedValues(run.id);
      assert.equal(JSON.parse(await values.open(runSuppliedLabel('acme/app'), kept?.sealed ?? '')).secrets.SUPPLIED, 'line one\nline two');
      // `runs-on: ${{ vars.RUNNER }}` planned with the repository's variable.
      assert.deepEqual((await engine.listJobs(run.id)).find((job) => job.jobKey === 'build')?.runsOn, ['self-hosted']);

      const runner = testRunner(engine);
      await runner.drain(succeed);
      const jobs = Object.fromEntries((await engine.listJobs(run.id)).map((job) => [job.jobKey, job.status]));
      // Job-level `if:` read the run's vars.
      assert.deepEqual(jobs, { build: 'success', deploy: 'success', never: 'skipped' });
      assert.equal((await engine.getRun(run.id))?.status, 'success');
      assert.deepEqual(await engine.runSuppliedValues(run.id), { secretNames: ['SUPPLIED'], varNames: ['DEPLOY'], sealed: null });
      await assert.rejects(engine.rerun(run.id, { kind: 'all' }), (error: Error & { code?: string }) => {
        assert.equal(error.code, 'run_values_gone');
        assert.match(error.message, /run-supplied secrets are gone when the run ends: secret SUPPLIED, variable DEPLOY/);
        return true;
      });
    });

    it('erases the values of a cancelled run, and keeps none for a run created failed', async (t) => {
      const { engine } = await engineFixture(t, backend.kind);
      const supplied = { secretNames: ['A'], varNames: [], sealed: 'l1.sealed-elsewhere' };
      const [created] = await engine.submit(request({ supplied, vars: { RUNNER: 'self-hosted' } }));
      assert.equal(created?.outcome, 'created');
      if (created?.outcome !== 'created') return;
      assert.equal((await engine.runSuppliedValues(created.run.id))?.sealed, 'l1.sealed-elsewhere');
      await engine.cancelRun(created.run.id);
      assert.equal((await engine.getRun(created.run.id))?.status, 'cancelled');
      assert.equal((await engine.runSuppliedValues(created.run.id))?.sealed, null);

      const [invalid] = await engine.submit(request({ supplied, workflows: [{ path: '.github/workflows/bad.yml', content: 'on: push\njobs:\n  a: { runs-on: x, steps: [{ uses: nope }] }' }] }));
      assert.equal(invalid?.outcome, 'invalid');
      const [withoutValues] = await engine.submit(request({ vars: { RUNNER: 'self-hosted' } }));
      assert.equal(withoutValues?.outcome, 'created');
      if (withoutValues?.outcome === 'created') assert.equal(await engine.runSuppliedValues(withoutValues.run.id), undefined);
    });
  });
}
