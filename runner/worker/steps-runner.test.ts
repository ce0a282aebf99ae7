/**
 * The steps loop in-process (real `bash` steps, a recording reporter): conditions and status
 * functions after a failure, `continue-on-error` with `outcome`/`conclusion`, step timeouts,
 * cancellation mid-step, outputs and env between steps, unhandled `uses:` steps.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { JobCancellation } from './cancellation.js';
import { HandlerRegistry, RUN_USING, createScriptHandler, type ActionHandler } from '../handlers/index.js';
import { runTestJob, testMessage, type RecordingReporter } from './test-support.js';

function results(records: ReturnType<RecordingReporter['steps']>): Array<[string, string | null]> {
  return records.map((record) => [record.name, record.result]);
}

describe('the steps loop', () => {
  it('runs failure() and always() steps after a failed step and skips success() ones', async (t) => {
    const message = testMessage({
      steps: [
        { run: 'echo one' },
        { run: 'echo failing; exit 3' },
        { run: 'echo should-not-run' },
        { run: 'echo cleanup', if: 'failure()' },
        { run: 'echo always', if: 'always()' },
        { run: 'echo status=${{ job.status }}', if: 'always()' },
      ],
    });
    const { result, reporter } = await runTestJob(t, message);
    assert.equal(result, 'failed');
    assert.deepEqual(results(reporter.steps()), [
      ['Set up job', 'succeeded'],
      ['Run echo one', 'succeeded'],
      ['Run echo failing; exit 3', 'failed'],
      ['Run echo should-not-run', 'skipped'],
      ['Run echo cleanup', 'succeeded'],
      ['Run echo always', 'succeeded'],
      ['Run echo status=failure', 'succeeded'],
      ['Complete job', 'succeeded'],
    ]);
    assert.ok(reporter.linesOf(3).includes('##[error]Process completed with exit code 3.'), reporter.linesOf(3).join('\n'));
    const failed = reporter.steps()[2];
    assert.deepEqual(failed?.issues.map((i) => [i.type, i.message, i.data['stepNumber']]), [['error', 'Process completed with exit code 3.', '3']]);
    assert.equal(failed?.errorCount, 1);
    assert.deepEqual(reporter.linesOf(4), [], 'a skipped step logs nothing');
    assert.equal(reporter.completion?.result, 'failed');
  });

  it('continue-on-error keeps the job green and shows outcome failure, conclusion success', async (t) => {
    const message = testMessage({
      steps: [
        { id: 'flaky', run: 'exit 1', continueOnError: true },
        { id: 'expr', run: 'exit 1', continueOnError: '${{ steps.flaky.outcome == \'failure\' }}' },
        { run: 'echo "${{ steps.flaky.outcome }}/${{ steps.flaky.conclusion }} ${{ steps.expr.conclusion }}"' },
      ],
    });
    const { result, reporter } = await runTestJob(t, message);
    assert.equal(result, 'succeeded');
    assert.deepEqual(results(reporter.steps()).slice(1, 4), [
      ['Run exit 1', 'succeeded'],
      ['Run exit 1', 'succeeded'],
      ['Run echo "failure/success success"', 'succeeded'],
    ]);
    assert.ok(reporter.linesOf(4).includes('failure/success success'));
  });

  it('a step over its timeout-minutes is stopped and fails; the job goes on to always() steps', async (t) => {
    const message = testMessage({
      steps: [
        { run: 'echo start; sleep 30; echo never', timeoutMinutes: 1.9 },
        { run: 'echo after', if: 'always()' },
      ],
    });
    const started = Date.now();
    const { result, reporter } = await runTestJob(t, message, { timings: { minuteMs: 400 } });
    assert.ok(Date.now() - started < 20_000, 'the sleep was cut short');
    assert.equal(result, 'failed');
    const lines = reporter.linesOf(2);
    assert.ok(lines.includes("##[error]The action 'Run echo start; sleep 30; echo never' has timed out after 1 minutes."), lines.join('\n'));
    assert.ok(!lines.includes('never'));
    assert.deepEqual(results(reporter.steps()).slice(1, 3), [
      ['Run echo start; sleep 30; echo never', 'failed'],
      ['Run echo after', 'succeeded'],
    ]);
  });

  it('a cancellation stops the running step, runs always() and cancelled() steps, and ends canceled', async (t) => {
    const message = testMessage({
      steps: [
        { run: 'echo started; sleep 30' },
        { run: 'echo skipped' },
        { run: 'echo cleanup', if: 'always()' },
        { run: 'echo was-cancelled', if: 'cancelled()' },
      ],
    });
    const { result, reporter } = await runTestJob(t, message, {
      onStart: (cancellation: JobCancellation) => setTimeout(() => cancellation.cancel('cancel'), 1_500),
    });
    assert.equal(result, 'canceled');
    assert.deepEqual(results(reporter.steps()).slice(1, 5), [
      ['Run echo started; sleep 30', 'canceled'],
      ['Run echo skipped', 'skipped'],
      ['Run echo cleanup', 'succeeded'],
      ['Run echo was-cancelled', 'succeeded'],
    ]);
    assert.ok(reporter.linesOf(2).includes('##[error]The operation was canceled.'));
    assert.equal(reporter.completion?.result, 'canceled');
  });

  it('a runner shutdown fails the job with the runner shutdown error and skips even always() steps', async (t) => {
    const message = testMessage({ steps: [{ run: 'sleep 30' }, { run: 'echo cleanup', if: 'always()' }] });
    const { result, reporter } = await runTestJob(t, message, {
      onStart: (cancellation: JobCancellation) => setTimeout(() => cancellation.cancel('runner-shutdown'), 1_000),
    });
    assert.equal(result, 'failed');
    const job = [...reporter.records.values()].find((r) => r.type === 'Job');
    assert.match(job?.issues[0]?.message ?? '', /The runner has received a shutdown signal/);
    assert.deepEqual(results(reporter.steps()).slice(1, 3), [
      ['Run sleep 30', 'canceled'],
      ['Run echo cleanup', 'skipped'],
    ]);
  });

  it('passes outputs and env between steps and evaluates job outputs at the end', async (t) => {
    const message = testMessage({
      env: { LEVEL: 'job' },
      outputs: { answer: '${{ steps.produce.outputs.answer }}', empty: '${{ steps.produce.outputs.none }}' },
      steps: [
        { id: 'produce', run: 'echo "answer=42" >> "$GITHUB_OUTPUT"; echo "FROM_FILE=file-value" >> "$GITHUB_ENV"; echo "/opt/extra-bin" >> "$GITHUB_PATH"' },
        { run: 'echo "$LEVEL $FROM_FILE ${{ steps.produce.outputs.answer }} $STEP_ONLY ${PATH%%:*}"', env: { STEP_ONLY: 'step', LEVEL: 'step-wins' } },
        { run: 'echo "$LEVEL ${STEP_ONLY:-unset}"' },
      ],
    });
    const { result, reporter } = await runTestJob(t, message);
    assert.equal(result, 'succeeded');
    assert.ok(reporter.linesOf(3).includes('step-wins file-value 42 step /opt/extra-bin'), reporter.linesOf(3).join('\n'));
    assert.ok(reporter.linesOf(4).includes('job unset'), reporter.linesOf(4).join('\n'));
    assert.deepEqual(reporter.completion?.outputs, { answer: '42' });
  });

  it('fails a uses: step nobody can run with not_implemented, never a silent success', async (t) => {
    const message = testMessage({
      steps: [{ uses: { name: 'actions/checkout', ref: 'v4' } }, { uses: { image: 'alpine:3.20' } }, { run: 'echo after', if: 'always()' }],
    });
    // A registry without an action resolver: the built-in one would resolve these through the job's server.
    const registry = new HandlerRegistry().register(RUN_USING, createScriptHandler());
    const { result, reporter } = await runTestJob(t, message, { registry });
    assert.equal(result, 'failed');
    assert.deepEqual(results(reporter.steps()).slice(1, 4), [
      ['Run actions/checkout@v4', 'failed'],
      ['Run alpine:3.20', 'skipped'],
      ['Run echo after', 'succeeded'],
    ]);
    assert.ok(reporter.linesOf(2).some((line) => line.startsWith('##[error]not_implemented: remote actions')), reporter.linesOf(2).join('\n'));
  });

  it('sets github.action_repository/action_ref as ActionRunner does: for the action step itself, empty for a run: step', async (t) => {
    const message = testMessage({
      steps: [
        { uses: { name: 'acme/probe', ref: 'v9' }, with: { who: '${{ github.action_repository }}@${{ github.action_ref }}' }, env: { X: 'before=${{ github.action_repository }}' } },
        { run: 'echo "run=[${{ github.action_repository }}] var=[$GITHUB_ACTION_REPOSITORY@$GITHUB_ACTION_REF] $X"', env: { X: 'before=${{ github.action_repository }}' } },
      ],
    });
    const probe: ActionHandler = {
      async run(context) {
        const github = context.contexts['github'] as Record<string, string>;
        const variables = context.runtimeEnvironment;
        context.log.write(`with=${context.inputs['who']} context=${github['action_repository']}@${github['action_ref']} var=${variables['GITHUB_ACTION_REPOSITORY']}@${variables['GITHUB_ACTION_REF']} ${context.environment['X']}`);
        return { outcome: 'succeeded' };
      },
    };
    const registry = new HandlerRegistry().register(RUN_USING, createScriptHandler()).register('probe', probe).setResolver({ resolve: async () => ({ using: 'probe' }) });
    const { result, reporter } = await runTestJob(t, message, { registry });
    assert.equal(result, 'succeeded');
    assert.ok(reporter.linesOf(2).includes('with=acme/probe@v9 context=acme/probe@v9 var=acme/probe@v9 before='), reporter.linesOf(2).join('\n'));
    // A step's env: is evaluated before its ActionRunner runs, so it sees what the step before left (the runner's job-wide github context).
    assert.ok(reporter.linesOf(3).includes('run=[] var=[@] before=acme/probe'), reporter.linesOf(3).join('\n'));
  });

  it('masks secrets and ::add-mask:: values in every line, and drops a job output holding one', async (t) => {
    const message = testMessage({
      variables: { MY_SECRET: { value: 'hunter2-secret-value', isSecret: true } },
      contexts: { secrets: null },
      outputs: { leak: '${{ secrets.MY_SECRET }}', fine: 'plain' },
      steps: [
        { run: 'echo "value: ${{ secrets.MY_SECRET }}"; echo "::add-mask::dynamic-token-123"; echo "later dynamic-token-123"' },
        { run: 'echo "::error::bad hunter2-secret-value"' },
      ],
    });
    const { reporter } = await runTestJob(t, message);
    const all = [...reporter.lines.values()].flat();
    assert.ok(!all.join('\n').includes('hunter2-secret-value'), all.join('\n'));
    // The script header shows the script as written, before its ::add-mask:: ran (so does the runner's).
    assert.deepEqual(
      all.filter((line) => line.includes('dynamic-token-123')).map((line) => line.startsWith('##[group]Run ') || line.startsWith('\u001b[36;1m')),
      [true, true],
    );
    assert.ok(reporter.linesOf(2).includes('value: ***') && reporter.linesOf(2).includes('later ***'), reporter.linesOf(2).join('\n'));
    assert.deepEqual(reporter.completion?.outputs, { fine: 'plain' });
    const complete = reporter.steps().at(-1);
    assert.ok(complete?.issues.some((i) => i.message === "Skip output 'leak' since it may contain secret."));
  });

  it('an evaluation error in a step env or condition fails that step with the runner wording', async (t) => {
    const message = testMessage({
      steps: [{ run: 'echo hi', env: { X: '${{ fromJSON(\'{bad\') }}' } }, { run: 'echo no', if: "always() && fromJSON('nope')" }],
    });
    const { result, reporter } = await runTestJob(t, message);
    assert.equal(result, 'failed');
    assert.deepEqual(results(reporter.steps()).slice(1, 3), [
      ['Run echo hi', 'failed'],
      ['Run echo no', 'failed'],
    ]);
    assert.match(reporter.linesOf(2)[0] ?? '', /^##\[error\].*The template is not valid/);
  });
});
