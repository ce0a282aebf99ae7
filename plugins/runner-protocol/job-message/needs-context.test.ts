import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { JobRecord } from '../../../core/engine/index.js';
import type { PlannedJob } from '../../../core/workflow/index.js';
import { needsFromJobs } from './needs-context.js';

const planned = (needs: readonly string[], idPrefix = ''): PlannedJob => ({ needs, scope: { idPrefix } }) as unknown as PlannedJob;

function record(id: number, jobKey: string, status: JobRecord['status'], extra: Partial<JobRecord> = {}): JobRecord {
  return { id, jobKey, status, continueOnError: false, outputs: {}, completedAt: id, ...extra } as JobRecord;
}

test('direct needs only, matrix instances aggregated, outputs merged in completion order', () => {
  const jobs = [
    record(1, 'build', 'success', { outputs: { a: '1', b: 'first' }, completedAt: 10 }),
    record(2, 'build', 'success', { outputs: { b: 'last' }, completedAt: 20 }),
    record(3, 'lint', 'failure', { continueOnError: true }),
    record(4, 'deploy', 'success'),
  ];
  assert.deepEqual(needsFromJobs(planned(['build', 'lint']), jobs), {
    build: { result: 'success', outputs: { a: '1', b: 'last' } },
    lint: { result: 'success', outputs: {} },
  });
});

test('failure beats cancelled beats skipped; unfinished jobs are left out', () => {
  const jobs = [record(1, 'a', 'success'), record(2, 'a', 'cancelled'), record(3, 'b', 'skipped'), record(4, 'c', 'in_progress'), record(5, 'd', 'failure'), record(6, 'd', 'cancelled')];
  assert.deepEqual(needsFromJobs(planned(['a', 'b', 'c', 'd']), jobs), {
    a: { result: 'cancelled', outputs: {} },
    b: { result: 'skipped', outputs: {} },
    d: { result: 'failure', outputs: {} },
  });
});

test('inside a called workflow needs are siblings under the caller; a needed caller stands for its jobs', () => {
  const jobs = [record(1, 'call[0]/x', 'success', { outputs: { o: '1' } }), record(2, 'call[0]/y', 'success'), record(3, 'call/z', 'failure')];
  assert.deepEqual(needsFromJobs(planned(['x'], 'call[0]/'), jobs), { x: { result: 'success', outputs: { o: '1' } } });
  assert.deepEqual(needsFromJobs(planned(['call']), jobs), { call: { result: 'failure', outputs: {} } });
});
