import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { isTerminal, type Completion, type NewJob } from '../../core/engine/index.js';
import { engineFixture } from '../support/engine-fixture.js';
import { job, runInput } from '../support/run-builder.js';
import { testRunner } from '../support/test-runner.js';

/** A small deterministic PRNG (mulberry32) so a failing seed can be replayed. */
function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const CONDITIONS = [null, null, 'always()', 'failure()', 'success()', 'cancelled()', '!cancelled()'];
const OUTCOMES: Completion['outcome'][] = ['success', 'success', 'success', 'failure', 'cancelled'];

function randomDag(next: () => number): NewJob[] {
  const size = 2 + Math.floor(next() * 8);
  return Array.from({ length: size }, (_, i) => {
    const needs = Array.from({ length: i }, (_, j) => `j${j}`).filter(() => next() < 0.3);
    const condition = CONDITIONS[Math.floor(next() * CONDITIONS.length)] ?? null;
    return job(`j${i}`, { needs, ifCondition: condition, continueOnError: next() < 0.1 });
  });
}

describe('property: every run reaches a terminal state (random DAGs, conditions and outcomes)', () => {
  it('holds for 60 random runs on SQLite, with cancellations mixed in', async (t) => {
    const { engine } = await engineFixture(t, 'sqlite');
    for (let seed = 1; seed <= 60; seed++) {
      const next = random(seed);
      const run = await engine.createRun(runInput(randomDag(next)));
      const runner = testRunner(engine);
      let steps = 0;
      for (let assignment = await runner.take(); assignment; assignment = await runner.take()) {
        if (next() < 0.05) await engine.cancelRun(run.id);
        await engine.completeJob(assignment.job.id, runner.identity.runnerId, { outcome: OUTCOMES[Math.floor(next() * OUTCOMES.length)] ?? 'success' });
        assert.ok(++steps < 50, `seed ${seed}: too many dispatches`);
      }
      const final = await engine.getRun(run.id);
      const jobs = await engine.listJobs(run.id);
      assert.ok(final && isTerminal(final.status), `seed ${seed}: run ended ${final?.status}; jobs ${jobs.map((j) => `${j.jobKey}=${j.status}/${j.reason ?? ''}`).join(' ')}`);
      for (const j of jobs) assert.ok(isTerminal(j.status), `seed ${seed}: job ${j.jobKey} left ${j.status}`);
    }
  });
});
