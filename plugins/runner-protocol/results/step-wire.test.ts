import assert from 'node:assert/strict';
import { test } from 'node:test';
import { stepReportFrom } from '../worker-api/index.js';
import type { ResultsStep } from './schemas.js';
import { resultsTime, stepUpdateOf } from './step-wire.js';

const STEP = 'B5D0E2A8-1111-4A6B-9A8E-0D3C2B1A0F9E';

test('results steps read as the timeline records they were made from', () => {
  const running = stepUpdateOf({ external_id: STEP, number: 2, name: 'Run tests', status: 3, conclusion: 0, started_at: '2030-01-01T00:00:01.250Z', completed_at: null });
  assert.deepEqual(running, { externalId: STEP.toLowerCase(), number: 2, name: 'Run tests', state: 'inProgress', result: undefined, startTime: Date.UTC(2030, 0, 1, 0, 0, 1, 250), finishTime: undefined });
  assert.deepEqual(stepReportFrom(running), { number: 2, name: 'Run tests', status: 'in_progress', startedAt: Date.UTC(2030, 0, 1, 0, 0, 1, 250) });

  const codes: [ResultsStep['status'], NonNullable<ResultsStep['conclusion']>, string, string | undefined][] = [
    [6, 2, 'success', 'success'],
    [6, 3, 'failure', 'failure'],
    [6, 4, 'cancelled', 'cancelled'],
    [6, 7, 'skipped', 'skipped'],
    ['STATUS_COMPLETED', 'CONCLUSION_FAILURE', 'failure', 'failure'],
    [5, 0, 'pending', undefined],
    // Unknown status with a conclusion: finished (as a legacy record with a result and no state).
    [0, 3, 'failure', 'failure'],
  ];
  for (const [status, conclusion, expected, expectedConclusion] of codes) {
    const report = stepReportFrom(stepUpdateOf({ external_id: STEP, number: 1, status, conclusion }));
    assert.deepEqual([report.status, report.conclusion], [expected, expectedConclusion], `status ${status}, conclusion ${conclusion}`);
  }
  assert.equal(stepReportFrom(stepUpdateOf({ external_id: STEP, number: 4, name: null, status: 5 })).name, 'Step 4');
});

test('results times: a time without a zone is UTC, .NET MinValue and null are unset', () => {
  assert.equal(resultsTime('2030-01-01T00:00:01.5'), Date.UTC(2030, 0, 1, 0, 0, 1, 500));
  assert.equal(resultsTime('2030-01-01T02:00:01.000+02:00'), Date.UTC(2030, 0, 1, 0, 0, 1));
  assert.equal(resultsTime('0001-01-01T00:00:00'), undefined);
  assert.equal(resultsTime(null), undefined);
  assert.equal(resultsTime(''), undefined);
});
