import assert from 'node:assert/strict';
import { test } from 'node:test';
import { annotationLevelOf, annotationOf } from './job-results.js';

test('annotation levels: names in any case or codes; failure is an error, unknown a notice', () => {
  const levels: [string | number | undefined, string][] = [
    ['failure', 'error'],
    ['FAILURE', 'error'],
    [3, 'error'],
    ['Warning', 'warning'],
    [2, 'warning'],
    ['notice', 'notice'],
    [1, 'notice'],
    ['unknown', 'notice'],
    [0, 'notice'],
    [undefined, 'notice'],
  ];
  for (const [level, expected] of levels) assert.equal(annotationLevelOf(level), expected, String(level));
});

test('annotations keep their file location; without a file the log line number the runner put there is dropped', () => {
  assert.deepEqual(annotationOf({ level: 'failure', message: 'boom', title: 'lint', path: 'src/a.ts', startLine: 3, endLine: 4, startColumn: 5, endColumn: 0, stepNumber: 2 }), {
    level: 'error',
    message: 'boom',
    title: 'lint',
    file: 'src/a.ts',
    startLine: 3,
    endLine: 4,
    startColumn: 5,
  });
  assert.deepEqual(annotationOf({ level: 'notice', message: 'packed', startLine: 12, endLine: 12, title: '' }), { level: 'notice', message: 'packed' });
  assert.deepEqual(annotationOf({ level: 2 }), { level: 'warning', message: '' });
});
