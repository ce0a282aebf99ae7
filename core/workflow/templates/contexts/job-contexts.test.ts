import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  buildJobContext,
  buildNeedsContext,
  buildSecretsContext,
  buildStepsContext,
  buildStrategyContext,
} from './job-contexts.js';
import { buildRunnerContext, runnerArch, runnerOs } from './runner-context.js';
import { toExpressionContexts } from './context-types.js';

test('steps: continue-on-error turns a failed outcome into a successful conclusion; generated ids stay out', () => {
  const steps = buildStepsContext([
    { id: 'checkout', outcome: 'success' },
    { id: 'flaky', outcome: 'failure', continueOnError: true, outputs: { n: '1' } },
    { id: '__run', outcome: 'success' },
  ]);
  assert.deepEqual(steps, {
    checkout: { outputs: {}, outcome: 'success', conclusion: 'success' },
    flaky: { outputs: { n: '1' }, outcome: 'failure', conclusion: 'success' },
  });
});

test('needs and jobs: result and outputs', () => {
  assert.deepEqual(buildNeedsContext({ build: { result: 'success', outputs: { build_id: '123456' } }, deploy: { result: 'failure' } }), {
    build: { result: 'success', outputs: { build_id: '123456' } },
    deploy: { result: 'failure', outputs: {} },
  });
});

test('job: only status without containers; container, services and workflow identity when given', () => {
  assert.deepEqual(buildJobContext({ status: 'success' }), { status: 'success' });
  const job = buildJobContext({
    status: 'failure',
    container: { network: 'net' },
    services: { postgres: { id: 'abc', network: 'net', ports: { '5432': '49153' } } },
    checkRunId: 7,
    workflow: { ref: 'o/r/.github/workflows/d.yml@refs/heads/main', sha: 's', repository: 'o/r', filePath: '.github/workflows/d.yml' },
  });
  assert.equal(job.services?.['postgres']?.ports['5432'], '49153');
  assert.deepEqual([job.check_run_id, job.workflow_repository, job.workflow_file_path], [7, 'o/r', '.github/workflows/d.yml']);
});

test('strategy: a job without a matrix is the only job of one', () => {
  assert.deepEqual(buildStrategyContext(), { 'fail-fast': true, 'job-index': 0, 'job-total': 1, 'max-parallel': 1 });
  assert.deepEqual(buildStrategyContext({ jobIndex: 3, jobTotal: 4 }), { 'fail-fast': true, 'job-index': 3, 'job-total': 4, 'max-parallel': 4 });
});

test('secrets always hold the GITHUB_TOKEN', () => {
  assert.deepEqual(buildSecretsContext({ NPM_TOKEN: 'n' }, 't'), { NPM_TOKEN: 'n', github_token: 't' });
});

test('runner: debug only when on; os and arch from Node names', () => {
  const runner = buildRunnerContext({ name: 'r1', os: 'Linux', arch: 'X64', temp: '/t', toolCache: '/c' });
  assert.deepEqual(runner, { name: 'r1', os: 'Linux', arch: 'X64', temp: '/t', tool_cache: '/c', environment: 'self-hosted' });
  assert.equal(buildRunnerContext({ name: 'r1', os: 'macOS', arch: 'ARM64', temp: '/t', toolCache: '/c', debug: true }).debug, '1');
  assert.deepEqual([runnerOs('linux'), runnerOs('win32'), runnerOs('darwin'), runnerOs('aix')], ['Linux', 'Windows', 'macOS', undefined]);
  assert.deepEqual([runnerArch('x64'), runnerArch('arm64'), runnerArch('arm'), runnerArch('ia32')], ['X64', 'ARM64', 'ARM', 'X86']);
});

test('toExpressionContexts leaves out the contexts that are not there', () => {
  const github = { event_name: 'push' } as never;
  assert.deepEqual(Object.keys(toExpressionContexts({ github, env: { A: 'a' } })), ['github', 'env']);
});
