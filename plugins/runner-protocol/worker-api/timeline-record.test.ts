import assert from 'node:assert/strict';
import { test } from 'node:test';
import { newAnnotations, stepReportOf } from './record-reports.js';
import { fastifyPath, workerPath } from './route-paths.js';
import { mergeRecord, normalizeRecord, viewRecord } from './timeline-record.js';
import { stepStatusOf } from './wire-enums.js';

const JOB = '2c9d6a41-7b1e-5f3a-9c2d-4e5f6a7b8c9d';
const STEP = 'b5d0e2a8-1111-4a6b-9a8e-0d3c2b1a0f9e';

test('records merge the way the runner queue merges them: nulls keep, counts grow, issues replace, variables merge', () => {
  const full = normalizeRecord(
    { id: STEP, parentId: JOB, type: 'Task', name: 'Run tests', order: 2, state: 'inProgress', result: null, errorCount: 1, issues: [{ type: 'error', message: 'a' }], variables: { a: { value: '1' } } },
    'r',
  );
  const partial = normalizeRecord({ id: STEP, log: { id: 7 }, name: null, errorCount: 0, issues: [], variables: { b: { value: '2' } } }, 'r');
  const merged = mergeRecord(mergeRecord(undefined, full), partial);
  assert.deepEqual(merged['log'], { id: 7 });
  assert.equal(merged['name'], 'Run tests');
  assert.equal(merged['errorCount'], 1);
  assert.equal((merged['issues'] as unknown[]).length, 1);
  assert.deepEqual(merged['variables'], { a: { value: '1' }, b: { value: '2' } });
  const done = mergeRecord(merged, normalizeRecord({ id: STEP, state: 2, result: 'FAILED', finishTime: '2030-01-01T00:00:02.5000000Z' }, 'r'));
  const view = viewRecord(done);
  assert.deepEqual([view.state, view.result, view.logId, view.finishTime], ['completed', 'failed', 7, Date.UTC(2030, 0, 1, 0, 0, 2, 500)]);
});

test('unset .NET dates read as unset, and the job record is no step', () => {
  const job = viewRecord(normalizeRecord({ id: JOB, type: 'Job', state: 'inProgress', startTime: '0001-01-01T00:00:00', order: null }, 'r'));
  assert.equal(job.startTime, undefined);
  assert.equal(stepReportOf(job), undefined);
  const skipped = viewRecord(normalizeRecord({ id: STEP, type: 'Task', refName: 'deploy', order: 3, state: 'completed', result: 'skipped' }, 'r'));
  assert.deepEqual(stepReportOf(skipped), { number: 3, name: 'deploy', status: 'skipped', conclusion: 'skipped' });
});

test('issues past the forwarded count become annotations with their location', () => {
  const view = viewRecord(
    normalizeRecord(
      {
        id: STEP,
        issues: [
          { type: 'warning', message: 'old' },
          { type: 3, message: 'new', data: { FILE: 'src/a.ts', line: '3', col: '5', endLine: '4', endColumn: 'x', title: 'T' } },
        ],
      },
      'r',
    ),
  );
  assert.deepEqual(newAnnotations(view, 1), [{ level: 'notice', message: 'new', title: 'T', file: 'src/a.ts', startLine: 3, endLine: 4, startColumn: 5 }]);
  assert.deepEqual(newAnnotations(view, 2), []);
});

test('results map to outcomes as the runner concludes them', () => {
  assert.deepEqual(stepStatusOf('inProgress', undefined), { status: 'in_progress' });
  assert.deepEqual(stepStatusOf('pending', undefined), { status: 'pending' });
  assert.deepEqual(stepStatusOf('completed', undefined), { status: 'success', conclusion: 'success' });
});

test('routes are the advertised templates', () => {
  assert.equal(fastifyPath('{scopeIdentifier}/_apis/x/{planId}'), '/:scopeIdentifier/_apis/x/:planId');
  assert.equal(workerPath('logs'), '/:scopeIdentifier/_apis/distributedtask/hubs/:hubName/plans/:planId/logs/:logId');
  assert.equal(workerPath('logs', { withoutLast: true }), '/:scopeIdentifier/_apis/distributedtask/hubs/:hubName/plans/:planId/logs');
  assert.equal(workerPath('feed'), '/:scopeIdentifier/_apis/distributedtask/hubs/:hubName/plans/:planId/timelines/:timelineId/records/:recordId/feed');
  assert.throws(() => workerPath('records', { withoutLast: true }), /ends without a placeholder/);
});
