import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { SelectionPolicy } from '../../core/engine/index.js';
import { localEvent } from '../../core/workflow/index.js';
import { ENGINE_BACKENDS, engineFixture } from '../support/engine-fixture.js';
import { succeed, testRunner } from '../support/test-runner.js';

const WORKFLOW = 'on: [push, pull_request_target]\njobs:\n  a:\n    runs-on: self-hosted\n    steps:\n      - run: echo hi\n';
const SHA = 'c'.repeat(40);

function request(event: string) {
  const ref = 'refs/heads/main';
  return {
    event: { ...localEvent({ name: event, repository: 'acme/web', ref, sha: SHA, actor: 'mallory', ...(event === 'push' ? {} : { payload: { action: 'opened' } }) }), ref, sha: SHA },
    repository: 'acme/web',
    actor: 'mallory',
    trigger: 'webhook' as const,
    workflows: [{ path: '.github/workflows/ci.yml', content: WORKFLOW }],
    serverUrl: 'http://127.0.0.1:9090',
  };
}

const denyPrTarget: SelectionPolicy = {
  name: 'execution-protection',
  review: (c) => (c.event === 'pull_request_target' ? { action: 'deny', reason: `event '${c.event}' is denied by rule event-0` } : { action: 'allow' }),
};
const holdForks: SelectionPolicy = {
  name: 'fork-gate',
  review: (c) => (c.actor === 'mallory' ? { action: 'hold', gate: 'fork-approval', reason: 'fork pull request awaits approval' } : { action: 'allow' }),
};

for (const backend of ENGINE_BACKENDS) {
  describe(`run-creation policies on ${backend.kind}`, { skip: backend.skip }, () => {
    it('a denial creates no run and says which policy denied it', async (t) => {
      const { engine } = await engineFixture(t, backend.kind, { policies: [denyPrTarget, holdForks] });
      const [result] = await engine.submit(request('pull_request_target'));
      assert.deepEqual(result, { path: '.github/workflows/ci.yml', outcome: 'denied', policy: 'execution-protection', reason: "event 'pull_request_target' is denied by rule event-0" });
    });

    it('a hold creates a pending run that runs once the gate is released', async (t) => {
      const { engine } = await engineFixture(t, backend.kind, { policies: [denyPrTarget, holdForks] });
      const [result] = await engine.submit(request('push'));
      assert.equal(result?.outcome, 'created');
      if (result?.outcome !== 'created') return;
      assert.deepEqual([result.run.status, result.run.reason], ['pending', 'gate:fork-approval']);
      const runner = testRunner(engine);
      assert.equal(await runner.drain(succeed), 0, 'nothing is handed out while held');
      assert.equal((await engine.advance(result.run.id))?.status, 'pending', 'the scheduler leaves a held run alone');
      assert.equal(await engine.releaseGate(result.run.id, 'other-gate'), false);
      assert.equal(await engine.releaseGate(result.run.id, 'fork-approval'), true);
      assert.equal(await runner.drain(succeed), 1);
      assert.equal((await engine.getRun(result.run.id))?.status, 'success');
    });

    it('a gate that closes fails the held run and cancels its jobs', async (t) => {
      const { engine } = await engineFixture(t, backend.kind, { policies: [holdForks] });
      const [result] = await engine.submit(request('push'));
      if (result?.outcome !== 'created') return assert.fail('expected a run');
      assert.equal(await engine.closeGate(result.run.id, 'fork-approval', 'no approval within 24 hours'), true);
      const run = await engine.getRun(result.run.id);
      assert.deepEqual([run?.status, run?.reason], ['failure', 'no approval within 24 hours']);
      assert.deepEqual((await engine.listJobs(result.run.id)).map((j) => j.status), ['cancelled']);
    });
  });
}
