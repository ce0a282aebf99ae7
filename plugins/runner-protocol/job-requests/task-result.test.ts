import assert from 'node:assert/strict';
import { it } from 'node:test';
import { completionOf, taskResultName } from './task-result.js';

it('reads a TaskResult as the runner writes it: a camelCase name in any case, or its number', () => {
  assert.equal(taskResultName('succeeded'), 'succeeded');
  assert.equal(taskResultName('SucceededWithIssues'), 'succeededWithIssues');
  assert.equal(taskResultName(3), 'canceled');
  assert.equal(taskResultName(5), 'abandoned');
  assert.equal(taskResultName('finished'), undefined);
  assert.equal(taskResultName(9), undefined);
});

it('records the Listener\'s result as the engine\'s outcome; an abandoned job failed', () => {
  assert.deepEqual(completionOf('succeededWithIssues'), { outcome: 'success' });
  assert.deepEqual(completionOf('canceled'), { outcome: 'cancelled' });
  assert.equal(completionOf('abandoned').outcome, 'failure');
  assert.match(completionOf('abandoned').reason ?? '', /abandoned/);
});
