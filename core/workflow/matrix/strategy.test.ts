import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { resolveStrategy } from './strategy.js';

describe('resolveStrategy', () => {
  it('runs one job without a matrix when there is no strategy', () => {
    const result = resolveStrategy(undefined);
    assert.ok(result.ok);
    assert.equal(result.plan.failFast, true);
    assert.equal(result.plan.maxParallel, undefined);
    assert.deepEqual(result.plan.jobs, [
      { matrix: null, combination: undefined, strategy: { 'fail-fast': true, 'job-index': 0, 'job-total': 1, 'max-parallel': 1 } },
    ]);
  });

  it('gives every job its strategy context', () => {
    const result = resolveStrategy({ 'fail-fast': false, 'max-parallel': 2, matrix: { v: [1, 2, 3] } });
    assert.ok(result.ok);
    assert.deepEqual(
      result.plan.jobs.map((job) => [job.matrix, job.strategy]),
      [1, 2, 3].map((v, i) => [{ v }, { 'fail-fast': false, 'job-index': i, 'job-total': 3, 'max-parallel': 2 }]),
    );
  });

  it('defaults max-parallel to the job total and reads it as an integer', () => {
    const unset = resolveStrategy({ matrix: { v: [1, 2] } });
    assert.ok(unset.ok);
    assert.equal(unset.plan.jobs[0]?.strategy['max-parallel'], 2);
    const fractional = resolveStrategy({ 'max-parallel': 1.9, matrix: { v: [1, 2] } });
    assert.ok(fractional.ok);
    assert.equal(fractional.plan.maxParallel, 1);
    const zero = resolveStrategy({ 'max-parallel': 0, matrix: { v: [1, 2] } });
    assert.ok(zero.ok);
    assert.equal(zero.plan.maxParallel, undefined);
  });

  it('runs the job once, without a matrix, when every combination is excluded', () => {
    const result = resolveStrategy({ matrix: { v: [1], exclude: [{ v: 1 }] } });
    assert.ok(result.ok);
    assert.equal(result.plan.jobs.length, 1);
    assert.equal(result.plan.jobs[0]?.matrix, null);
  });

  it('reports bad values and matrix errors together', () => {
    const result = resolveStrategy({ 'fail-fast': 'yes', 'max-parallel': 'two', matrix: { v: [] }, retry: 1 }, { jobId: 'build' });
    assert.equal(result.ok, false);
    if (!result.ok) assert.equal(result.errors.length, 4);
  });
});
