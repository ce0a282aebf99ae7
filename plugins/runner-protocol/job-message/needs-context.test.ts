import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { JobRecord } from '../../../core/engine/index.js';
import { flattenJobs, loadWorkflow, localEvent, planWorkflow, type PlannedJob } from '../../../core/workflow/index.js';
import { needsFromJobs } from './needs-context.js';

const NO_PLAN = { jobs: [] };

const planned = (needs: readonly string[], idPrefix = ''): PlannedJob => ({ needs, scope: { idPrefix } }) as unknown as PlannedJob;

function record(id: number, jobKey: string, status: JobRecord['status'], extra: Partial<JobRecord> = {}): JobRecord {
  return { id, jobKey, status, continueOnError: false, outputs: {}, completedAt: id, ...extra } as JobRecord;
}

test('direct needs only, matrix instances aggregated, outputs merged in completion order', () => {
  const jobs = [
    record(1, 'build', 'success', { outputs: { a: '1', b: 'first' }, completedAt: 10 }),
    record(2, 'build', 'success', { outputs: { b: 'last' }, completedAt: 20 }),
    record(3, 'lint', 'failure', { continueOnError: true }),
    record(4, 'deploy', 'success'),
  ];
  assert.deepEqual(needsFromJobs(planned(['build', 'lint']), jobs, NO_PLAN), {
    build: { result: 'success', outputs: { a: '1', b: 'last' } },
    lint: { result: 'success', outputs: {} },
  });
});

test('failure beats cancelled beats skipped; unfinished jobs are left out', () => {
  const jobs = [record(1, 'a', 'success'), record(2, 'a', 'cancelled'), record(3, 'b', 'skipped'), record(4, 'c', 'in_progress'), record(5, 'd', 'failure'), record(6, 'd', 'cancelled')];
  assert.deepEqual(needsFromJobs(planned(['a', 'b', 'c', 'd']), jobs, NO_PLAN), {
    a: { result: 'cancelled', outputs: {} },
    b: { result: 'skipped', outputs: {} },
    d: { result: 'failure', outputs: {} },
  });
});

test('inside a called workflow needs are siblings under the caller; a needed caller stands for its jobs', () => {
  const jobs = [record(1, 'call[0]/x', 'success', { outputs: { o: '1' } }), record(2, 'call[0]/y', 'success'), record(3, 'call/z', 'failure')];
  assert.deepEqual(needsFromJobs(planned(['x'], 'call[0]/'), jobs, NO_PLAN), { x: { result: 'success', outputs: { o: '1' } } });
  assert.deepEqual(needsFromJobs(planned(['call']), jobs, NO_PLAN), { call: { result: 'failure', outputs: {} } });
});

const CALLER = `on: push
jobs:
  call:
    uses: ./.github/workflows/called.yml
    with:
      greeting: hi
  after:
    needs: call
    runs-on: x
    steps:
      - run: echo \${{ needs.call.outputs.said }}
`;
const CALLED = `on:
  workflow_call:
    inputs:
      greeting:
        type: string
        required: true
    outputs:
      said:
        value: \${{ jobs.speak.outputs.text }} (\${{ inputs.greeting }})
      state:
        value: \${{ jobs.speak.result }}/\${{ jobs.nested.result }}/\${{ jobs.nested.outputs.deep }}
      broken:
        value: \${{ fromJSON(jobs.speak.outputs.text) }}
jobs:
  speak:
    runs-on: x
    outputs:
      text: \${{ steps.s.outputs.text }}
    steps:
      - id: s
        run: echo
  nested:
    uses: ./.github/workflows/inner.yml
`;
const INNER = `on:
  workflow_call:
    outputs:
      deep:
        value: \${{ jobs.leaf.outputs.v }}
jobs:
  leaf:
    runs-on: x
    steps:
      - run: echo
`;

test("a needed calling job's outputs are its workflow_call outputs, evaluated with the called jobs' results and outputs", async () => {
  const files: Record<string, string> = { '.github/workflows/called.yml': CALLED, '.github/workflows/inner.yml': INNER };
  const loaded = await loadWorkflow({ name: '.github/workflows/ci.yml', content: CALLER }, { loader: { read: async (ref) => ({ name: ref.path, content: files[ref.path] ?? '' }) } });
  assert.deepEqual(loaded.errors, []);
  const sha = 'a'.repeat(40);
  const plan = planWorkflow(loaded, { event: { ...localEvent({ repository: 'acme/app', ref: 'refs/heads/main', sha, actor: 'me' }), ref: 'refs/heads/main', sha }, workflowPath: '.github/workflows/ci.yml', server: { serverUrl: 'https://ci.example.test' } });
  const after = flattenJobs(plan.jobs).find((job) => job.path === 'after');
  assert.ok(after);
  const jobs = [record(1, 'call/speak', 'success', { outputs: { text: 'hello' } }), record(2, 'call/nested/leaf', 'success', { outputs: { v: '42' } })];
  assert.deepEqual(needsFromJobs(after, jobs, plan), { call: { result: 'success', outputs: { said: 'hello (hi)', state: 'success/success/42', broken: '' } } });
  // Not every called job is done: the caller is not either.
  assert.deepEqual(needsFromJobs(after, [jobs[0] as JobRecord, record(2, 'call/nested/leaf', 'in_progress')], plan), {});
});
