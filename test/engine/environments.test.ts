import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { environmentRulesFrom, type Engine, type EnvironmentRule, type RunRecord } from '../../core/engine/index.js';
import { localEvent } from '../../core/workflow/index.js';
import { ENGINE_BACKENDS, engineFixture } from '../support/engine-fixture.js';
import { succeed, testRunner } from '../support/test-runner.js';

const SHA = 'e'.repeat(40);

const WORKFLOW = `on: push
jobs:
  build:
    runs-on: self-hosted
    steps:
      - run: echo build
  deploy:
    needs: build
    runs-on: self-hosted
    environment:
      name: production
      url: https://example.test/\${{ github.sha }}
    steps:
      - run: echo deploy
  after:
    needs: deploy
    runs-on: self-hosted
    steps:
      - run: echo after
  lint:
    runs-on: self-hosted
    steps:
      - run: echo lint
`;

function request(ref = 'refs/heads/main') {
  return {
    event: { ...localEvent({ name: 'push', repository: 'acme/web', ref, sha: SHA, actor: 'octo' }), ref, sha: SHA },
    repository: 'acme/web',
    actor: 'octo',
    trigger: 'local' as const,
    workflows: [{ path: '.github/workflows/deploy.yml', content: WORKFLOW }],
    serverUrl: 'http://127.0.0.1:9090',
  };
}

const rules = (rule: EnvironmentRule) => environmentRulesFrom({ 'acme/web': { Production: rule } });

async function submitted(engine: Engine, ref?: string): Promise<RunRecord> {
  const [result] = await engine.submit(request(ref));
  if (result?.outcome !== 'created') return assert.fail(`expected a run, got ${JSON.stringify(result)}`);
  return result.run;
}

async function jobNamed(engine: Engine, runId: number, key: string) {
  const job = (await engine.listJobs(runId)).find((candidate) => candidate.jobKey === key);
  if (!job) return assert.fail(`no job ${key}`);
  return job;
}

for (const backend of ENGINE_BACKENDS) {
  describe(`environments on ${backend.kind}`, { skip: backend.skip }, () => {
    it("keeps a job's environment name and url on its record", async (t) => {
      const { engine } = await engineFixture(t, backend.kind);
      const run = await submitted(engine);
      const deploy = await jobNamed(engine, run.id, 'deploy');
      // The url stays an expression: the runner evaluates it after the job's steps.
      assert.deepEqual(deploy.environment, { name: 'production', url: "${{ format('https://example.test/{0}', github.sha) }}" });
      assert.equal((await jobNamed(engine, run.id, 'build')).environment, null);
      assert.equal(await testRunner(engine).drain(succeed), 4, 'without a rule the environment holds nothing');
    });

    it('a reviewer rule holds the job alone until it is approved as admin_override', async (t) => {
      const { engine, clock } = await engineFixture(t, backend.kind, { environmentRules: rules({ required_reviewers: 1 }) });
      const run = await submitted(engine);
      const runner = testRunner(engine);
      assert.equal(await runner.drain(succeed), 2, 'build and lint run; deploy waits');
      const deploy = await jobNamed(engine, run.id, 'deploy');
      assert.deepEqual([deploy.status, deploy.reason], ['pending', 'environment_approval']);
      assert.equal((await jobNamed(engine, run.id, 'after')).status, 'pending');
      const events = (await engine.events(run.id)).map((e) => e.event);
      assert.ok(
        events.some((e) => e.type === 'job_status' && e.job_id === deploy.id && e.status === 'pending' && /^waiting for approval: environment production requires a review \(svc approve \d+ --job \d+\)$/.test(e.reason ?? '')),
        'the feed says why the job waits and how to approve it',
      );

      assert.equal((await engine.approveJob(run.id, 999_999, 'system')).kind, 'not_found');
      assert.equal((await engine.approveJob(run.id, (await jobNamed(engine, run.id, 'build')).id, 'system')).kind, 'not_waiting');
      clock.advance(1000);
      const approved = await engine.approveJob(run.id, deploy.id, 'system');
      assert.equal(approved.kind, 'approved');
      if (approved.kind !== 'approved') return;
      assert.equal(approved.job.status, 'queued');
      assert.deepEqual(approved.job.environmentApproval, { kind: 'admin_override', by: 'system', at: clock.now() });
      assert.equal((await engine.approveJob(run.id, deploy.id, 'system')).kind, 'not_waiting', 'a second approval finds nothing waiting');
      assert.equal(await runner.drain(succeed), 2);
      assert.equal((await engine.getRun(run.id))?.status, 'success');
    });

    it('a branch rule that does not allow the ref fails the job with GitHub\'s wording', async (t) => {
      const { engine } = await engineFixture(t, backend.kind, { environmentRules: rules({ deployment_branches: ['main', 'release/*'], required_reviewers: 1 }) });
      const run = await submitted(engine, 'refs/heads/feature/x');
      await testRunner(engine).drain(succeed);
      const deploy = await jobNamed(engine, run.id, 'deploy');
      assert.deepEqual([deploy.status, deploy.reason], ['failure', 'Branch "feature/x" is not allowed to deploy to production due to environment protection rules.']);
      assert.equal((await jobNamed(engine, run.id, 'after')).status, 'skipped');
      assert.equal((await engine.getRun(run.id))?.status, 'failure');

      const allowed = await submitted(engine, 'refs/heads/release/2');
      await testRunner(engine).drain(succeed);
      assert.equal((await jobNamed(engine, allowed.id, 'deploy')).reason, 'environment_approval', 'release/* allows release/2, then the reviewer rule holds it');
      const tagged = await submitted(engine, 'refs/tags/v1');
      await testRunner(engine).drain(succeed);
      assert.equal((await jobNamed(engine, tagged.id, 'deploy')).reason, 'Tag "v1" is not allowed to deploy to production due to environment protection rules.');
    });

    it('a wait timer holds the job until its deadline, then the approval, as GitHub orders them', async (t) => {
      const { engine, clock } = await engineFixture(t, backend.kind, { environmentRules: rules({ wait_timer_minutes: 1, required_reviewers: 1 }) });
      const run = await submitted(engine);
      const runner = testRunner(engine);
      await runner.drain(succeed);
      let deploy = await jobNamed(engine, run.id, 'deploy');
      assert.deepEqual([deploy.status, deploy.reason, deploy.environmentWaitUntil], ['pending', 'environment_wait_timer', clock.now() + 60_000]);
      assert.equal((await engine.approveJob(run.id, deploy.id, 'system')).kind, 'not_waiting', 'no approval before the timer ends');
      clock.advance(59_000);
      await engine.sweep();
      assert.equal((await jobNamed(engine, run.id, 'deploy')).reason, 'environment_wait_timer');
      clock.advance(1_000);
      // The sweep (any node's, after any restart) finds the ended timer in the store.
      assert.equal((await engine.sweep()).environmentTimers, 1);
      deploy = await jobNamed(engine, run.id, 'deploy');
      assert.deepEqual([deploy.status, deploy.reason], ['pending', 'environment_approval']);
      assert.equal((await engine.approveJob(run.id, deploy.id, 'system')).kind, 'approved');
      assert.equal(await runner.drain(succeed), 2);
      assert.equal((await engine.getRun(run.id))?.status, 'success');
    });

    it('a wait timer started on one node is released by the sweep of another (the deadline is in the store)', { skip: backend.kind === 'sqlite' ? 'two nodes share PostgreSQL only' : false }, async (t) => {
      const { engine, clock, secondNode } = await engineFixture(t, backend.kind, { environmentRules: rules({ wait_timer_minutes: 5 }) });
      const run = await submitted(engine);
      await testRunner(engine).drain(succeed);
      assert.equal((await jobNamed(engine, run.id, 'deploy')).reason, 'environment_wait_timer');
      const other = await secondNode();
      clock.advance(5 * 60_000);
      assert.equal((await other.sweep()).environmentTimers, 1);
      assert.equal((await jobNamed(engine, run.id, 'deploy')).status, 'queued');
    });

    it("an environment read from the needs' outputs is known once the stand-in is expanded, and gated then", async (t) => {
      const { engine } = await engineFixture(t, backend.kind, { environmentRules: rules({ required_reviewers: 1 }) });
      const content = `on: push
jobs:
  pick:
    runs-on: self-hosted
    outputs:
      target: \${{ steps.p.outputs.target }}
    steps:
      - id: p
        run: echo target=production >> "$GITHUB_OUTPUT"
  deploy:
    needs: pick
    runs-on: self-hosted
    environment: \${{ needs.pick.outputs.target }}
    steps:
      - run: echo deploy
`;
      const [result] = await engine.submit({ ...request(), workflows: [{ path: '.github/workflows/deploy.yml', content }] });
      if (result?.outcome !== 'created') return assert.fail(JSON.stringify(result));
      const standIn = await jobNamed(engine, result.run.id, 'deploy');
      assert.deepEqual([standIn.deferred, standIn.environment], [true, null]);
      await testRunner(engine).drain(() => ({ outcome: 'success', outputs: { target: 'production' } }));
      const deploy = await jobNamed(engine, result.run.id, 'deploy');
      assert.deepEqual([deploy.environment?.name, deploy.status, deploy.reason], ['production', 'pending', 'environment_approval']);
    });

    it('cancelling the run cancels a job waiting for approval', async (t) => {
      const { engine } = await engineFixture(t, backend.kind, { environmentRules: rules({ required_reviewers: 1 }) });
      const run = await submitted(engine);
      await testRunner(engine).drain(succeed);
      await engine.cancelRun(run.id);
      assert.equal((await jobNamed(engine, run.id, 'deploy')).status, 'cancelled');
      assert.equal((await engine.getRun(run.id))?.status, 'cancelled');
    });

    it('a re-run asks for the approval again', async (t) => {
      const { engine } = await engineFixture(t, backend.kind, { environmentRules: rules({ required_reviewers: 1 }) });
      const run = await submitted(engine);
      const runner = testRunner(engine);
      await runner.drain(succeed);
      await engine.approveJob(run.id, (await jobNamed(engine, run.id, 'deploy')).id, 'system');
      await runner.drain(succeed);
      await engine.rerun(run.id, { kind: 'all' });
      await runner.drain(succeed);
      const deploy = await jobNamed(engine, run.id, 'deploy');
      assert.deepEqual([deploy.status, deploy.reason, deploy.environmentApproval], ['pending', 'environment_approval', null]);
    });
  });
}
