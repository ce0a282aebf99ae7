import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { loadWorkflow, type LoadedWorkflowFile, type WorkflowLoader, type WorkflowRef } from '../parser/index.js';
import { tokenToValue } from '../templates/index.js';
import { expandJob } from './expand-job.js';
import { localEvent } from './local-event.js';
import { planWorkflow } from './plan-workflow.js';
import type { CallPlan, PlannedJob, WorkflowPlan } from './types.js';

const EVENT = localEvent({ repository: 'octo/app', ref: 'refs/heads/main', sha: 'a'.repeat(40), actor: 'mona' });

function loader(files: Record<string, string>): WorkflowLoader {
  return {
    read(ref: WorkflowRef): Promise<LoadedWorkflowFile | undefined> {
      const content = files[ref.path];
      return Promise.resolve(content === undefined ? undefined : { name: `./${ref.path}`, content });
    },
  };
}

async function plan(caller: string, called: string, secretNames?: readonly string[]): Promise<WorkflowPlan> {
  const loaded = await loadWorkflow({ name: '.github/workflows/ci.yml', content: caller }, { loader: loader({ '.github/workflows/lib.yml': called }) });
  assert.deepEqual(loaded.errors, []);
  return planWorkflow(loaded, { event: EVENT, vars: { REGION: 'eu' }, ...(secretNames === undefined ? {} : { secretNames }) });
}

function call(job: PlannedJob | undefined, index = 0): CallPlan {
  const result = job?.instances[index]?.call;
  assert.ok(result, 'a call');
  return result;
}

const LIB = [
  'on:',
  '  workflow_call:',
  '    inputs:',
  '      target: { type: string, required: true }',
  '      debug: { type: boolean }',
  '      retries: { type: number, default: 3 }',
  '      region: { type: string, default: "${{ vars.REGION }}" }',
  '    secrets:',
  '      token: { required: true }',
  '    outputs:',
  '      artifact: { value: "${{ jobs.build.outputs.name }}" }',
  'concurrency: lib-${{ inputs.target }}',
  'env: { IN_LIB: "1" }',
  'jobs:',
  '  build:',
  '    runs-on: ubuntu-${{ inputs.target }}',
  '    outputs: { name: "${{ steps.b.outputs.name }}" }',
  '    steps: [{ id: b, run: make }]',
  '  test:',
  '    needs: build',
  '    strategy: { matrix: { shard: [1, 2] } }',
  '    runs-on: ubuntu-latest',
  '    steps: [{ run: make test }]',
].join('\n');

const caller = (body: string): string => `on: push\nenv: { IN_CALLER: "1" }\njobs:\n${body.replace(/^/gm, '  ')}\n`;

describe('reusable workflow calls', () => {
  it('resolves typed inputs with their defaults, maps secrets and outputs', async () => {
    const result = await plan(caller('lib:\n  uses: ./.github/workflows/lib.yml\n  with: { target: "24.04" }\n  secrets: { token: "${{ secrets.NPM }}" }'), LIB);
    const lib = call(result.jobs[0]);
    assert.deepEqual(lib.inputs, { target: '24.04', debug: false, retries: 3, region: 'eu' });
    assert.equal(lib.secrets.inherit, false);
    assert.deepEqual(lib.secrets.names, ['token']);
    assert.deepEqual(Object.keys(lib.outputs), ['artifact']);
    assert.equal(lib.concurrency?.group, 'lib-24.04');
  });

  it('expands the called jobs under the caller: paths, ids, names, needs', async () => {
    const result = await plan(caller('prep:\n  runs-on: x\n  steps: [{ run: p }]\nlib:\n  needs: prep\n  name: Library\n  uses: ./.github/workflows/lib.yml\n  with: { target: "24.04" }\n  secrets: inherit'), LIB);
    const jobs = call(result.jobs[1]).jobs;
    assert.deepEqual(
      jobs.map((job) => [job.path, job.waitsFor, job.instances.map((instance) => [instance.id, instance.name])]),
      [
        ['lib/build', ['prep'], [['lib/build', 'Library / build']]],
        ['lib/test', ['lib/build'], [['lib/test[0]', 'Library / test (1)'], ['lib/test[1]', 'Library / test (2)']]],
      ],
    );
    assert.deepEqual(jobs[0]?.instances[0]?.runsOn, { labels: ['ubuntu-24.04'] });
    assert.equal(result.jobCount, 4);
  });

  it("gives called jobs the called workflow's env, not the caller's", async () => {
    const result = await plan(caller('lib:\n  uses: ./.github/workflows/lib.yml\n  with: { target: a }\n  secrets: inherit'), LIB);
    const env = call(result.jobs[0]).jobs[0]?.instances[0]?.env ?? [];
    assert.deepEqual(env.map((token) => tokenToValue(token)), [{ IN_LIB: '1' }]);
    assert.deepEqual(result.jobs[0]?.scope.env.map((token) => tokenToValue(token)), [{ IN_CALLER: '1' }]);
  });

  it('passes every secret with secrets: inherit and fails the plan, with GitHub\'s message, on a required one that is missing', async () => {
    const result = await plan(caller('lib:\n  uses: ./.github/workflows/lib.yml\n  with: { target: a }\n  secrets: inherit'), LIB, ['NPM']);
    const lib = call(result.jobs[0]);
    assert.deepEqual(lib.secrets, { inherit: true, names: ['NPM'] });
    assert.deepEqual(result.warnings, []);
    assert.deepEqual(
      result.errors.map((error) => [error.message, error.job]),
      [['Secret token is required, but not provided while calling.', 'lib']],
    );
  });

  it('takes a required secret that secrets: inherit provides, in any case, and checks nothing when the names are unknown', async () => {
    const withIt = await plan(caller('lib:\n  uses: ./.github/workflows/lib.yml\n  with: { target: a }\n  secrets: inherit'), LIB, ['TOKEN']);
    assert.deepEqual(withIt.errors, []);
    const unknown = await plan(caller('lib:\n  uses: ./.github/workflows/lib.yml\n  with: { target: a }\n  secrets: inherit'), LIB);
    assert.deepEqual(unknown.errors, []);
  });

  it('checks a nested inherit against what the outer call mapped', async () => {
    const outer = 'on:\n  workflow_call:\n    secrets: { token: { required: true } }\njobs:\n  inner:\n    uses: ./.github/workflows/lib.yml\n    with: { target: x }\n    secrets: inherit\n';
    const files = { '.github/workflows/outer.yml': outer, '.github/workflows/lib.yml': LIB };
    const mapped = await loadWorkflow({ name: '.github/workflows/ci.yml', content: caller('outer:\n  uses: ./.github/workflows/outer.yml\n  secrets: { token: "${{ secrets.NPM }}" }') }, { loader: loader(files) });
    assert.deepEqual(mapped.errors, []);
    assert.deepEqual(planWorkflow(mapped, { event: EVENT, secretNames: ['NPM'] }).errors, []);
  });

  it('calls once per caller matrix instance, with per-instance inputs and names', async () => {
    const result = await plan(
      caller('lib:\n  strategy: { matrix: { target: [a, b] } }\n  uses: ./.github/workflows/lib.yml\n  with: { target: "${{ matrix.target }}" }\n  secrets: inherit'),
      LIB,
    );
    const lib = result.jobs[0];
    assert.deepEqual(lib?.instances.map((instance) => [instance.id, instance.name, instance.call?.inputs?.['target'], instance.call?.concurrency?.group]), [
      ['lib[0]', 'lib (a)', 'a', 'lib-a'],
      ['lib[1]', 'lib (b)', 'b', 'lib-b'],
    ]);
    assert.deepEqual(call(lib, 1).jobs.map((job) => job.instances[0]?.name), ['lib (b) / build', 'lib (b) / test (1)']);
    assert.deepEqual(call(lib, 1).jobs.map((job) => job.path), ['lib[1]/build', 'lib[1]/test']);
  });

  it('reports an input of the wrong type that only evaluation reveals', async () => {
    const result = await plan(caller('lib:\n  uses: ./.github/workflows/lib.yml\n  with: { target: a, retries: "${{ github.ref }}" }\n  secrets: inherit'), LIB);
    assert.deepEqual(result.errors.map((e) => [e.job, e.message]), [['lib', "Input retries must be a number, got 'refs/heads/main'"]]);
  });

  it('waits for needs in with:, and the called jobs reading inputs wait with it', async () => {
    const result = await plan(
      caller('prep:\n  runs-on: x\n  outputs: { t: "${{ steps.t.outputs.t }}" }\n  steps: [{ id: t, run: p }]\nlib:\n  needs: prep\n  uses: ./.github/workflows/lib.yml\n  with: { target: "${{ needs.prep.outputs.t }}" }\n  secrets: inherit'),
      LIB,
    );
    const lib = result.jobs[1];
    assert.equal(call(lib).inputs, undefined);
    assert.deepEqual(lib?.instances[0]?.deferred, [
      { field: 'with', waitingFor: ['needs'] },
      { field: 'workflow-concurrency', waitingFor: ['inputs'] },
    ]);
    const build = call(lib).jobs[0];
    assert.deepEqual(build?.instances[0]?.deferred, [{ field: 'runs-on', waitingFor: ['inputs'] }]);

    assert.ok(lib);
    const ready = expandJob(lib.template, lib.scope, { needs: { prep: { result: 'success', outputs: { t: '22.04' } } } });
    assert.equal(call(ready).inputs?.['target'], '22.04');
    assert.deepEqual(call(ready).jobs[0]?.instances[0]?.runsOn, { labels: ['ubuntu-22.04'] });
  });

  it('nests calls as deep as the parser loads them', async () => {
    const outer = 'on: workflow_call\njobs:\n  inner:\n    uses: ./.github/workflows/lib.yml\n    with: { target: x }\n    secrets: inherit\n';
    const loaded = await loadWorkflow(
      { name: '.github/workflows/ci.yml', content: caller('outer:\n  uses: ./.github/workflows/outer.yml\n  secrets: inherit') },
      { loader: loader({ '.github/workflows/outer.yml': outer, '.github/workflows/lib.yml': LIB }) },
    );
    assert.deepEqual(loaded.errors, []);
    const result = planWorkflow(loaded, { event: EVENT });
    const inner = call(result.jobs[0]).jobs[0];
    assert.deepEqual(call(inner).jobs.map((job) => job.instances[0]?.id), ['outer/inner/build', 'outer/inner/test[0]']);
    assert.equal(call(inner).jobs[0]?.instances[0]?.name, 'outer / inner / build');
  });
});
