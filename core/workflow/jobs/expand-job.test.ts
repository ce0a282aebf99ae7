import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { loadWorkflow } from '../parser/index.js';
import { expandJob, MAX_RUN_JOBS } from './expand-job.js';
import { localEvent } from './local-event.js';
import { planWorkflow } from './plan-workflow.js';
import type { PlannedJob, WorkflowPlan } from './types.js';

const EVENT = localEvent({ repository: 'octo/app', ref: 'refs/heads/main', sha: 'a'.repeat(40), actor: 'mona' });

async function plan(yaml: string, maxJobs?: number): Promise<WorkflowPlan> {
  const loaded = await loadWorkflow({ name: '.github/workflows/ci.yml', content: yaml });
  assert.deepEqual(loaded.errors, []);
  return planWorkflow(loaded, { event: EVENT, ...(maxJobs === undefined ? {} : { maxJobs }) });
}

function job(result: WorkflowPlan, key: string): PlannedJob {
  const found = result.jobs.find((candidate) => candidate.key === key);
  assert.ok(found, `no job ${key}`);
  return found;
}

const workflow = (jobs: string): string => `on: push\njobs:\n${jobs.replace(/^/gm, '  ')}\n`;

describe('expandJob: instances', () => {
  it('gives a job without a matrix one instance named by its key, with the defaults', async () => {
    const result = await plan(workflow('build:\n  runs-on: ubuntu-latest\n  steps:\n    - run: make\n    - run: make test'));
    const build = job(result, 'build');
    assert.equal(build.instances.length, 1);
    const [instance] = build.instances;
    assert.equal(instance?.id, 'build');
    assert.equal(instance?.name, 'build');
    assert.deepEqual(instance?.runsOn, { labels: ['ubuntu-latest'] });
    assert.equal(instance?.timeoutMinutes, 360);
    assert.equal(instance?.cancelTimeoutMinutes, 5);
    assert.equal(instance?.continueOnError, false);
    assert.equal(instance?.steps.length, 2);
    assert.deepEqual(instance?.strategy, { 'fail-fast': true, 'job-index': 0, 'job-total': 1, 'max-parallel': 1 });
    assert.equal(build.matrix, false);
  });

  it('ids matrix instances by job index and names them the way GitHub does', async () => {
    const result = await plan(
      workflow('test:\n  runs-on: ${{ matrix.os }}\n  strategy:\n    max-parallel: 2\n    matrix:\n      os: [ubuntu-latest, windows-latest]\n      node: [18, 20]\n  steps: [{ run: npm test }]'),
    );
    const test = job(result, 'test');
    assert.deepEqual(
      test.instances.map((instance) => [instance.id, instance.name, instance.runsOn?.labels[0]]),
      [
        ['test[0]', 'test (ubuntu-latest, 18)', 'ubuntu-latest'],
        ['test[1]', 'test (ubuntu-latest, 20)', 'ubuntu-latest'],
        ['test[2]', 'test (windows-latest, 18)', 'windows-latest'],
        ['test[3]', 'test (windows-latest, 20)', 'windows-latest'],
      ],
    );
    assert.deepEqual(test.strategy, { failFast: true, maxParallel: 2, total: 4 });
    assert.deepEqual(test.instances[3]?.strategy, { 'fail-fast': true, 'job-index': 3, 'job-total': 4, 'max-parallel': 2 });
    assert.equal(result.jobCount, 4);
  });

  it('shows an evaluated name as it comes out, without matrix values', async () => {
    const result = await plan(workflow('test:\n  name: Test on ${{ matrix.os }}\n  runs-on: x\n  strategy: { matrix: { os: [a, b], v: [1] } }\n  steps: [{ run: t }]'));
    assert.deepEqual(job(result, 'test').instances.map((instance) => instance.name), ['Test on a', 'Test on b']);
  });

  it('reads runs-on groups and label lists, timeouts and continue-on-error per instance', async () => {
    const result = await plan(
      workflow(
        [
          'a:',
          '  runs-on: { group: linux-pool, labels: [x64, gpu] }',
          '  timeout-minutes: ${{ matrix.t }}',
          '  cancel-timeout-minutes: 2',
          '  continue-on-error: ${{ matrix.t == 10 }}',
          '  strategy: { matrix: { t: [10, 20] } }',
          '  steps: [{ run: a }]',
        ].join('\n'),
      ),
    );
    const instances = job(result, 'a').instances;
    assert.deepEqual(instances[0]?.runsOn, { labels: ['x64', 'gpu'], group: 'linux-pool' });
    assert.deepEqual(instances.map((i) => [i.timeoutMinutes, i.cancelTimeoutMinutes, i.continueOnError]), [[10, 2, true], [20, 2, false]]);
  });

  it('evaluates environment names and keeps the url for the runner', async () => {
    const result = await plan(workflow('d:\n  runs-on: x\n  environment:\n    name: prod-${{ github.ref_name }}\n    url: ${{ steps.deploy.outputs.url }}\n  steps: [{ run: d }]'));
    const environment = job(result, 'd').instances[0]?.environment;
    assert.equal(environment?.name, 'prod-main');
    assert.equal(environment?.url?.isExpression, true);
  });

  it('runs a job once, without a matrix, when every combination is excluded', async () => {
    const result = await plan(workflow('a:\n  runs-on: x\n  strategy: { matrix: { v: [1], exclude: [{ v: 1 }] } }\n  steps: [{ run: a }]'));
    assert.deepEqual(job(result, 'a').instances.map((i) => [i.id, i.matrix]), [['a', null]]);
  });
});

describe('expandJob: deferred values', () => {
  const DEFERRED = workflow(
    [
      'setup:',
      '  runs-on: x',
      '  outputs: { matrix: "${{ steps.m.outputs.json }}", pool: "${{ steps.p.outputs.pool }}" }',
      '  steps: [{ id: m, run: echo }]',
      'build:',
      '  needs: setup',
      '  name: build ${{ matrix.v }}',
      '  runs-on: ${{ needs.setup.outputs.pool }}',
      '  concurrency: build-${{ github.ref }}',
      '  strategy:',
      '    matrix: ${{ fromJSON(needs.setup.outputs.matrix) }}',
      '  steps: [{ run: make }]',
    ].join('\n'),
  );

  it('leaves a needs-dependent strategy and what reads it for later, with one stand-in instance', async () => {
    const build = job(await plan(DEFERRED), 'build');
    assert.equal(build.strategy, undefined);
    assert.deepEqual(build.deferred, [{ field: 'strategy', waitingFor: ['needs'] }]);
    assert.equal(build.instances.length, 1);
    const [stand] = build.instances;
    assert.equal(stand?.id, 'build');
    assert.equal(stand?.runsOn, undefined);
    // The name reads the unknown matrix; the concurrency group reads neither and is evaluated.
    assert.deepEqual(stand?.deferred, [
      { field: 'name', waitingFor: ['matrix'] },
      { field: 'runs-on', waitingFor: ['needs'] },
    ]);
    assert.equal(stand?.concurrency?.group, 'build-refs/heads/main');
  });

  it('expands the job for real once the needs are known', async () => {
    const build = job(await plan(DEFERRED), 'build');
    const needs = { setup: { result: 'success' as const, outputs: { matrix: '{"v":[1,2,3]}', pool: 'linux' } } };
    const ready = expandJob(build.template, build.scope, { needs });
    assert.deepEqual(ready.deferred, []);
    assert.deepEqual(
      ready.instances.map((instance) => [instance.id, instance.name, instance.runsOn?.labels, instance.deferred]),
      [1, 2, 3].map((v, i) => [`build[${i}]`, `build ${v}`, ['linux'], []]),
    );
  });
});

describe('expandJob: errors and limits', () => {
  it('reports a matrix that yields more than 256 jobs at the strategy', async () => {
    const result = await plan(workflow('big:\n  runs-on: x\n  strategy: { matrix: { a: [1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17], b: [1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16] } }\n  steps: [{ run: a }]'));
    assert.deepEqual(
      result.errors.map((e) => [e.line, e.message, e.job]),
      [[5, "Strategy expansion exceeded 256 results for job 'big'", 'big']],
    );
  });

  it('reports an empty job concurrency group once for a matrix job, not once per instance', async () => {
    // The schema's `job-concurrency` is a non-empty string: the evaluator rejects '' (as the runner's).
    const result = await plan(workflow("a:\n  runs-on: x\n  concurrency: ${{ vars.none }}\n  strategy: { matrix: { v: [1, 2] } }\n  steps: [{ run: a }]"));
    assert.deepEqual(result.errors.map((e) => [e.line, e.message]), [[5, "Unexpected value ''"]]);
  });

  it('reports an evaluated value of the wrong type where it was written', async () => {
    const result = await plan(workflow("a:\n  runs-on: x\n  timeout-minutes: ${{ github.ref }}\n  steps: [{ run: a }]"));
    assert.deepEqual(result.errors.map((e) => [e.file, e.line, e.message]), [['.github/workflows/ci.yml', 5, "Unexpected value 'refs/heads/main'"]]);
  });

  it(`caps a run at ${MAX_RUN_JOBS} jobs (configurable), naming the job that went over`, async () => {
    const result = await plan(workflow('a:\n  runs-on: x\n  strategy: { matrix: { v: [1, 2, 3] } }\n  steps: [{ run: a }]\nb:\n  runs-on: x\n  strategy: { matrix: { v: [1, 2] } }\n  steps: [{ run: b }]'), 4);
    assert.deepEqual(result.errors.map((e) => [e.job, e.message]), [['b', 'The workflow run would have more than 4 jobs']]);
  });
});
