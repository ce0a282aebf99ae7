import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { MappingToken } from '@actions/workflow-parser/templates/tokens/mapping-token';
import type { SequenceToken } from '@actions/workflow-parser/templates/tokens/sequence-token';
import type { TemplateToken } from '@actions/workflow-parser/templates/tokens/template-token';
import { evaluateActionStageIf, evaluateJobIf, evaluateStepIf, evaluateStepIfAsync, ifConditionText } from './if-conditions.js';
import { readTemplateTokens } from './read-template.js';
import { TemplateEvaluationError } from './template-errors.js';

const FILE = '.github/workflows/ci.yml';

function ifOf(condition: string): { job: TemplateToken; step: TemplateToken } {
  const yaml = `on: push\njobs:\n  build:\n    runs-on: x\n    if: ${condition}\n    steps:\n      - run: x\n        if: ${condition}\n`;
  const read = readTemplateTokens(yaml, { fileName: FILE });
  assert.deepEqual(read.errors.map((e) => e.text), []);
  const build = ((read.token as MappingToken).find('jobs') as MappingToken).find('build') as MappingToken;
  const step = ((build.find('steps') as SequenceToken).get(0) as MappingToken).find('if');
  const job = build.find('if');
  assert.ok(job && step);
  return { job, step };
}

const github = { event_name: 'push', ref: 'refs/heads/main' };

describe('job if', () => {
  test('without a status function the job needs every dependency to have succeeded', () => {
    const { job } = ifOf("github.ref == 'refs/heads/main'");
    assert.equal(evaluateJobIf(job, { github }, { needs: { a: 'success' } }), true);
    assert.equal(evaluateJobIf(job, { github }, { needs: { a: 'failure' } }), false);
    assert.equal(evaluateJobIf(job, { github }, { needs: { a: 'skipped' } }), false);
  });

  test('always() and failure() decide alone; a blank condition is success()', () => {
    assert.equal(evaluateJobIf(ifOf('always()').job, {}, { needs: { a: 'failure' } }), true);
    assert.equal(evaluateJobIf(ifOf('${{ failure() }}').job, {}, { needs: { a: 'failure' } }), true);
    assert.equal(evaluateJobIf(undefined, {}, { needs: { a: 'cancelled' } }), false);
    assert.equal(evaluateJobIf('', {}, { needs: {} }), true);
  });

  test('a cancelled run skips jobs unless they ask for cancelled() or always()', () => {
    assert.equal(evaluateJobIf(undefined, {}, { needs: {}, cancelled: true }), false);
    assert.equal(evaluateJobIf('cancelled()', {}, { needs: {}, cancelled: true }), true);
  });

  test('a context jobs cannot use is an error placed at the condition', () => {
    const { job } = ifOf("env.X == 'y'");
    assert.throws(
      () => evaluateJobIf(job, { env: {} }, { needs: {}, fileTable: [FILE] }),
      (error: unknown) =>
        error instanceof TemplateEvaluationError &&
        error.message ===
          `The template is not valid. ${FILE} (Line: 5, Col: 9): Unrecognized named-value: 'env'. Located at position 1 within expression: env.X == 'y'`,
    );
  });

  test('the documented pitfall: an expression inside a longer string is a non-empty string', () => {
    const { job } = ifOf('${{ false }} && false');
    assert.equal(ifConditionText(job), "format('{0} && false', false)");
    assert.equal(evaluateJobIf(job, {}, { needs: {} }), true);
  });
});

describe('step if', () => {
  test('steps after a failure are skipped unless the condition asks for failure() or always()', () => {
    const { step } = ifOf("github.event_name == 'push'");
    assert.equal(evaluateStepIf(step, { github }, { jobStatus: 'success' }), true);
    assert.equal(evaluateStepIf(step, { github }, { jobStatus: 'failure' }), false);
    assert.equal(evaluateStepIf('failure()', {}, { jobStatus: 'failure' }), true);
  });

  test('inside a composite action success() reads the action status, cancelled() the job', () => {
    const options = { jobStatus: 'success', actionStatus: 'failure', schema: 'action' } as const;
    assert.equal(evaluateStepIf(undefined, {}, options), false);
    assert.equal(evaluateStepIf('failure()', {}, options), true);
    assert.equal(evaluateStepIf('cancelled()', {}, { ...options, jobStatus: 'cancelled' }), true);
  });

  test('steps may read steps, env, needs and hashFiles; action steps may not read needs', async () => {
    const contexts = { steps: { a: { outcome: 'success' } }, needs: { b: { result: 'success' } } };
    assert.equal(evaluateStepIf("steps.a.outcome == 'success' && needs.b.result == 'success'", contexts, { jobStatus: 'success' }), true);
    assert.throws(() => evaluateStepIf('needs.b', contexts, { jobStatus: 'success', schema: 'action' }), /Unrecognized named-value: 'needs'/);
    const hashFiles = { hash: () => Promise.resolve('abc') };
    assert.equal(await evaluateStepIfAsync("hashFiles('x') == 'abc'", {}, { jobStatus: 'success', hashFiles }), true);
  });
});

describe('action pre-if and post-if', () => {
  test('default always(); written conditions are evaluated as they are, status functions read the job', () => {
    assert.equal(evaluateActionStageIf(undefined, {}, { jobStatus: 'failure' }), true);
    assert.equal(evaluateActionStageIf("runner.os == 'linux'", { runner: { os: 'Linux' } }, { jobStatus: 'failure' }), true);
    assert.equal(evaluateActionStageIf('success()', {}, { jobStatus: 'failure' }), false);
    assert.throws(() => evaluateActionStageIf('steps.a', {}, { jobStatus: 'success' }), /Unrecognized named-value: 'steps'/);
  });
});
