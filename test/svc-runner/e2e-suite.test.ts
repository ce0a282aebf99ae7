/**
 * svc-runner end to end, as a user runs it: `svc serve` (in process, SQLite), `svc-runner
 * configure --no-externals`, then `svc-runner run --once` per job. Each test is one workflow
 * (fixtures/e2e-workflows/); the assertions read what the engine recorded (run view, stored
 * log, annotations, step summaries) and expect what GitHub documents for the same workflow.
 */
import assert from 'node:assert/strict';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { describe, it } from 'node:test';
import { createRun } from '../runner-protocol/worker-job.js';
import { E2E_ACTIONS } from './fixtures/e2e-actions.js';
import { annotationsOf, e2eHost, jobOf, logLines, runOnce, runView, stepStarted, stepSummaries, stepsOf, workspaceOf } from './fixtures/e2e-harness.js';
import { finishedJob, runnerCli } from './listener-harness.js';

async function workflow(name: string): Promise<string> {
  return readFile(new URL(`./fixtures/e2e-workflows/${name}.yml`, import.meta.url), 'utf8');
}

function includesAll(lines: readonly string[], expected: readonly string[]): void {
  for (const line of expected) assert.ok(lines.includes(line), `the log has '${line}':\n${lines.join('\n')}`);
}

describe('svc-runner end to end through svc serve', () => {
  it('file commands, workflow commands, a problem matcher and masking', async (t) => {
    const { h, dataDir, root } = await e2eHost(t, 'e2e-commands');
    const run = await createRun(h, await workflow('commands'));
    assert.match(await runOnce(t, root), /Job build completed with result: Succeeded/);
    const view = await runView(h, run.id);
    assert.deepEqual([view.status, view.conclusion], ['success', 'success']);
    assert.deepEqual(stepsOf(view, 'build'), [
      ['Set up job', 'success'],
      ['Prepare repository', 'success'],
      ['Write file commands', 'success'],
      ['Read them', 'success'],
      ['Workflow commands', 'success'],
      ['Problem matcher', 'success'],
      ['Complete job', 'success'],
    ]);
    assert.deepEqual(jobOf(view, 'build').outputs, { single: 'one', multi: 'first line\nsecond line' });

    const build = await logLines(h, run.id, 'build');
    includesAll(build, [
      'greeting=hello from the env file single=one',
      'multi: first line',
      'multi: second line',
      'e2e-tool ran',
      '##[group]Tools',
      'inside the group',
      '##[endgroup]',
      '::warning::literal while stopped',
      'masked ***',
      '##[warning]lib/x.c:12: warning: unused variable',
    ]);
    assert.ok(!build.some((line) => line === 'hidden debug line' || line.startsWith('##[debug]')), `::debug:: is hidden without ACTIONS_STEP_DEBUG:\n${build.join('\n')}`);
    assert.ok(!build.some((line) => line.includes('generated-42-token')), 'the ::add-mask:: value never reaches the log');

    const annotations = await annotationsOf(h, run.id);
    assert.deepEqual(
      annotations.map((a) => [a.level, a.message, a.file ?? null, a.line ?? null]),
      [
        ['notice', 'noticed', 'src/app.ts', 3],
        ['warning', 'warned', 'src/app.ts', 5],
        ['error', 'errored', 'src/app.ts', 7],
        ['notice', 'after resume', null, null],
        ['warning', 'unused variable', 'lib/x.c', 12],
      ],
    );
    assert.equal(annotations[0]?.title, 'Heads up');
    assert.deepEqual(stepSummaries(dataDir, run.id).map((summary) => summary.trim()), ['### Summary from e2e']);
  });

  it('step outputs become job outputs that a dependent job reads through needs', async (t) => {
    const { h, root } = await e2eHost(t, 'e2e-needs');
    const run = await createRun(h, await workflow('needs'));
    const cli = runnerCli(t, ['run', '--runner-root', root]);
    for (const job of await h.engine.listJobs(run.id)) await finishedJob(h, job.id, 60_000);
    // The engine has the result once the worker reports it; the listener prints its line when the worker has exited.
    for (let waited = 0; !/Job deploy completed/.test(cli.output()) && waited < 30_000; waited += 50) await new Promise((resolve) => setTimeout(resolve, 50));
    cli.child.kill('SIGTERM');
    assert.equal((await cli.exited).code, 0, cli.output());
    assert.match(cli.output(), /Job build completed with result: Succeeded[\s\S]*Job deploy completed with result: Succeeded/);
    const view = await runView(h, run.id);
    assert.deepEqual([view.status, view.conclusion], ['success', 'success']);
    assert.deepEqual(jobOf(view, 'build').outputs, { single: 'one', multi: 'first line\nsecond line' });
    includesAll(await logLines(h, run.id, 'deploy'), ['needs single=one greeting=[]', 'needs multi: first line', 'needs multi: second line']);
  });

  // Step timeouts are covered through the real server by the worker suites (worker-*.test.ts), on a short test minute.
  it('continue-on-error, a failing step, then failure() and always() run while success() is skipped', async (t) => {
    const { h, root } = await e2eHost(t, 'e2e-status');
    const run = await createRun(h, await workflow('status'));
    const output = await runOnce(t, root);
    assert.match(output, /Job build completed with result: Failed/);
    const view = await runView(h, run.id);
    assert.equal(jobOf(view, 'build').conclusion, 'failure');
    assert.deepEqual(stepsOf(view, 'build'), [
      ['Set up job', 'success'],
      ['Flaky', 'success'],
      ['After flaky', 'success'],
      ['Broken', 'failure'],
      ['Skipped after failure', 'skipped'],
      ['On failure', 'success'],
      ['On success', 'skipped'],
      ['Always', 'success'],
      ['Complete job', 'success'],
    ]);
    const lines = await logLines(h, run.id);
    includesAll(lines, [
      'flaky',
      '##[error]Process completed with exit code 3.',
      'outcome=failure conclusion=success',
      'broken-started',
      '##[error]Process completed with exit code 7.',
      'on-failure',
      'always-ran',
    ]);
    for (const never of ['broken-never', 'skipped-never', 'on-success-never']) assert.ok(!lines.includes(never), `${never} must not run`);
  });

  it('a run cancelled through the operator API mid-step ends cancelled, and its always() step runs', async (t) => {
    const { h, root } = await e2eHost(t, 'e2e-cancel');
    const run = await createRun(h, await workflow('cancel'));
    const cli = runnerCli(t, ['run', '--once', '--runner-root', root]);
    await stepStarted(h, run.id, 'build', 2);
    const response = await fetch(`${h.baseUrl}/api/v1/runs/${run.id}/cancel`, { method: 'POST', headers: { authorization: `Bearer ${h.systemToken}` } });
    assert.equal(response.status, 202, await response.text());
    const { code } = await cli.exited;
    assert.equal(code, 0, cli.output());
    assert.match(cli.output(), /Job build completed with result: Canceled/);
    const view = await runView(h, run.id);
    assert.deepEqual([view.status, view.conclusion, jobOf(view, 'build').conclusion], ['cancelled', 'cancelled', 'cancelled']);
    assert.deepEqual(stepsOf(view, 'build').slice(1, 5), [
      ['Long', 'cancelled'],
      ['Next', 'skipped'],
      ['Cleanup', 'success'],
      ['Not cancelled', 'skipped'],
    ]);
    const lines = await logLines(h, run.id);
    includesAll(lines, ['long-started', 'cleanup-ran']);
    for (const never of ['long-never', 'next-never', 'not-cancelled-never']) assert.ok(!lines.includes(never), `${never} must not run`);
  });

  it('runs a local JavaScript action (main and post; pre is not run for a local action) and a nested composite', async (t) => {
    const { h, root } = await e2eHost(t, 'e2e-actions');
    for (const [path, content] of Object.entries(E2E_ACTIONS)) {
      const file = join(workspaceOf(root), path);
      await mkdir(dirname(file), { recursive: true });
      await writeFile(file, content);
    }
    const run = await createRun(h, await workflow('actions'));
    const output = await runOnce(t, root);
    assert.match(output, /Job build completed with result: Succeeded/);
    const view = await runView(h, run.id);
    assert.deepEqual(stepsOf(view, 'build'), [
      ['Set up job', 'success'],
      ['Run ./.github/actions/js', 'success'],
      ['Run ./.github/actions/outer', 'success'],
      ['After actions', 'success'],
      ['Post Run ./.github/actions/js', 'success'],
      ['Complete job', 'success'],
    ]);
    assert.deepEqual(jobOf(view, 'build').outputs, { said: 'hello mona', deep: 'deep(hi hello mona)' });
    const lines = await logLines(h, run.id);
    includesAll(lines, [
      "##[warning]`pre` execution is not supported for local action from './.github/actions/js'",
      'js main for mona',
      'inner sees FROM_OUTER=set-in-outer level=hi hello mona',
      'after greeting=hi hello mona deep=deep(hi hello mona) env=set-in-outer',
      'js post sees phase=main-done',
    ]);
    assert.ok(!lines.includes('js pre ran'), 'the pre stage of a local action does not run');
  });
});
