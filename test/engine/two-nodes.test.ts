import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Assignment, Engine } from '../../core/engine/index.js';
import { ENGINE_BACKENDS, engineFixture } from '../support/engine-fixture.js';
import { job, matrixJob, runInput } from '../support/run-builder.js';

const postgres = ENGINE_BACKENDS.find((b) => b.kind === 'postgres');

/** Two engines on one PostgreSQL database, each with its own pool and notifier: two nodes. */
describe('two engines on one PostgreSQL database', { skip: postgres?.skip ?? 'no postgres backend' }, () => {
  it('share the work: every job runs exactly once, across both nodes, and the run completes', async (t) => {
    const { engine: a, secondNode } = await engineFixture(t, 'postgres');
    const b = await secondNode();
    const run = await a.createRun(runInput([job('setup'), ...matrixJob('test', Array.from({ length: 12 }, (_, i) => ({ n: String(i) })), {}, { needs: ['setup'] }), job('done', { needs: ['test'] })]));
    const taken: string[] = [];
    const worker = async (engine: Engine, name: string) => {
      const identity = { runnerId: name, runnerName: name, labels: ['self-hosted'] };
      for (let idle = 0; idle < 40; ) {
        const assignment: Assignment | undefined = await engine.acquireJob(identity, 60_000);
        if (!assignment) {
          idle++;
          await new Promise((resolve) => setTimeout(resolve, 10));
          continue;
        }
        idle = 0;
        taken.push(assignment.job.instanceId);
        await engine.completeJob(assignment.job.id, name, { outcome: 'success' });
      }
    };
    // Four runners, two on each node, all racing.
    await Promise.all([worker(a, 'a1'), worker(a, 'a2'), worker(b, 'b1'), worker(b, 'b2')]);
    assert.equal(taken.length, 14);
    assert.equal(new Set(taken).size, 14, 'no job dispatched twice');
    assert.equal((await b.getRun(run.id))?.status, 'success');
  });

  it('a node that stops mid-run loses nothing: the other node continues the run', async (t) => {
    const { engine: a, secondNode } = await engineFixture(t, 'postgres');
    const b = await secondNode();
    const run = await a.createRun(runInput([job('one'), job('two', { needs: ['one'] }), job('three', { needs: ['two'] })]));
    const identity = { runnerId: 'r', runnerName: 'r', labels: ['self-hosted'] };
    const first = await a.acquireJob(identity, 60_000);
    assert.ok(first);
    // Node A is gone from here on; its runner reports to node B instead.
    assert.equal(await b.completeJob(first.job.id, 'r', { outcome: 'success' }), true);
    for (let next = await b.acquireJob(identity, 60_000); next; next = await b.acquireJob(identity, 60_000)) {
      await b.completeJob(next.job.id, 'r', { outcome: 'success' });
    }
    assert.equal((await b.getRun(run.id))?.status, 'success');
  });

  it('a runner waiting on one node is woken by a job queued on the other', async (t) => {
    const { engine: a, secondNode } = await engineFixture(t, 'postgres');
    const b = await secondNode();
    const identity = { runnerId: 'w', runnerName: 'w', labels: ['self-hosted'] };
    const waiting = b.waitForJob(identity, { timeoutMs: 10_000, leaseMs: 60_000 });
    await new Promise((resolve) => setTimeout(resolve, 100));
    const started = Date.now();
    await a.createRun(runInput([job('ping')]));
    const assignment = await waiting;
    assert.equal(assignment?.job.jobKey, 'ping');
    assert.ok(Date.now() - started < 4000, 'woken by the notification, not by the 5 s re-read');
  });
});
