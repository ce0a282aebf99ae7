import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { JOB_IF_NAMES, STEP_IF_NAMES } from './allowed-names.js';
import { evaluateExpression, evaluateIfCondition } from './evaluate.js';
import { hasStatusFunction, wrapIfCondition, type JobResult, type StatusContext } from './status-functions.js';

const FUNCTIONS = ['success()', 'failure()', 'cancelled()', 'always()'] as const;

function statuses(status: StatusContext, allowed = STEP_IF_NAMES): Record<string, unknown> {
  return Object.fromEntries(FUNCTIONS.map((fn) => [fn, evaluateExpression(fn, {}, { status, allowed })]));
}

describe('step-level status functions (the job\'s current status)', () => {
  test('job succeeding so far', () => {
    assert.deepEqual(statuses({ kind: 'step', jobStatus: 'success' }), {
      'success()': true, 'failure()': false, 'cancelled()': false, 'always()': true,
    });
  });
  test('job failed', () => {
    assert.deepEqual(statuses({ kind: 'step', jobStatus: 'failure' }), {
      'success()': false, 'failure()': true, 'cancelled()': false, 'always()': true,
    });
  });
  test('job cancelled', () => {
    assert.deepEqual(statuses({ kind: 'step', jobStatus: 'cancelled' }), {
      'success()': false, 'failure()': false, 'cancelled()': true, 'always()': true,
    });
  });
  test('composite main steps read the action status, cancelled() the job\'s', () => {
    assert.deepEqual(statuses({ kind: 'step', jobStatus: 'success', actionStatus: 'failure' }), {
      'success()': false, 'failure()': true, 'cancelled()': false, 'always()': true,
    });
    assert.deepEqual(statuses({ kind: 'step', jobStatus: 'cancelled', actionStatus: 'success' }), {
      'success()': true, 'failure()': false, 'cancelled()': true, 'always()': true,
    });
  });
  test('step status functions take no arguments', () => {
    assert.throws(
      () => evaluateExpression("success('x')", {}, { status: { kind: 'step', jobStatus: 'success' }, allowed: STEP_IF_NAMES }),
      /Too many parameters supplied: 'success'/,
    );
  });
});

describe('job-level status functions (results of the jobs depended on)', () => {
  const job = (needs: Record<string, JobResult>, cancelled = false): StatusContext => ({ kind: 'job', needs, cancelled });

  test('no dependencies: success unless the run is cancelled', () => {
    assert.deepEqual(statuses(job({}), JOB_IF_NAMES), {
      'success()': true, 'failure()': false, 'cancelled()': false, 'always()': true,
    });
    assert.deepEqual(statuses(job({}, true), JOB_IF_NAMES), {
      'success()': false, 'failure()': false, 'cancelled()': true, 'always()': true,
    });
  });
  test('failure() is true if any dependency failed', () => {
    assert.deepEqual(statuses(job({ build: 'success', test: 'failure' }), JOB_IF_NAMES), {
      'success()': false, 'failure()': true, 'cancelled()': false, 'always()': true,
    });
  });
  test('a skipped or cancelled dependency is neither success nor failure', () => {
    for (const result of ['skipped', 'cancelled'] as const) {
      assert.deepEqual(statuses(job({ build: 'success', lint: result }), JOB_IF_NAMES), {
        'success()': false, 'failure()': false, 'cancelled()': false, 'always()': true,
      });
    }
  });
  test('job names as arguments narrow the dependencies looked at', () => {
    const status = job({ build: 'success', lint: 'failure' });
    const evaluate = (text: string) => evaluateExpression(text, {}, { status, allowed: JOB_IF_NAMES });
    assert.equal(evaluate("success('BUILD')"), true);
    assert.equal(evaluate("failure('build')"), false);
    assert.equal(evaluate("failure('build', 'lint')"), true);
    assert.throws(() => evaluate("success('deploy')"), /Job 'deploy' is not a dependency of this job/);
  });
  test('a status function without a status to read is an evaluation error', () => {
    assert.throws(
      () => evaluateExpression('success()', {}, { allowed: JOB_IF_NAMES }),
      (error: Error & { kind?: string; code?: string }) => error.kind === 'evaluation' && error.code === 'function_unavailable',
    );
  });
});

describe('implicit success() on if:', () => {
  test('a condition without a status function gets success() && (...)', () => {
    assert.equal(wrapIfCondition("github.ref == 'main'"), "success() && (github.ref == 'main')");
    assert.equal(wrapIfCondition('a || b'), 'success() && (a || b)');
  });
  test('a status function anywhere, in any case, leaves the condition alone', () => {
    for (const condition of ['always()', "Failure() || github.ref == 'x'", "contains(format('{0}', cancelled()), 'true')", 'a[success()]']) {
      assert.equal(wrapIfCondition(condition), condition);
      assert.equal(hasStatusFunction(condition), true);
    }
  });
  test('a blank condition is success()', () => {
    assert.equal(wrapIfCondition(''), 'success()');
    assert.equal(wrapIfCondition('  \n'), 'success()');
  });
  test('a function merely named like a status function property does not count', () => {
    assert.equal(hasStatusFunction('github.success'), false);
  });
  test('an if: without a status function does not run after a failure', () => {
    const contexts = { github: { ref: 'main' } };
    const failed = { kind: 'step', jobStatus: 'failure' } as const;
    assert.equal(evaluateIfCondition("github.ref == 'main'", contexts, { status: failed }), false);
    assert.equal(evaluateIfCondition("always() && github.ref == 'main'", contexts, { status: failed }), true);
    assert.equal(evaluateIfCondition('', contexts, { status: { kind: 'step', jobStatus: 'success' } }), true);
  });
  test('job if: with skipped dependencies', () => {
    const status = { kind: 'job', needs: { build: 'skipped' } } as const;
    const contexts = { needs: { build: { result: 'skipped' } } };
    assert.equal(evaluateIfCondition("needs.build.result == 'skipped'", contexts, { status, allowed: JOB_IF_NAMES }), false);
    assert.equal(evaluateIfCondition("!cancelled() && needs.build.result == 'skipped'", contexts, { status, allowed: JOB_IF_NAMES }), true);
  });
});
