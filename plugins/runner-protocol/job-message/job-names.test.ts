import assert from 'node:assert/strict';
import { test } from 'node:test';
import { flattenJobs, loadWorkflow, planWorkflow, type PlannedJob } from '../../../core/workflow/index.js';
import { jobNames, orchestrationId } from './job-names.js';

async function plannedJobs(jobs: string): Promise<PlannedJob[]> {
  const loaded = await loadWorkflow({ name: '.github/workflows/ci.yml', content: `on: push\njobs:\n${jobs}` });
  assert.deepEqual(loaded.errors, []);
  const plan = planWorkflow(loaded, {
    event: { name: 'push', ref: 'refs/heads/main', sha: 'a'.repeat(40), repository: { fullName: 'o/r', id: 1, ownerId: 2 }, actor: { login: 'me', id: 3 } },
  });
  return flattenJobs(plan.jobs);
}

async function namesOf(job: string): Promise<string[]> {
  const [planned] = await plannedJobs(job);
  assert.ok(planned);
  const names = jobNames(planned);
  return planned.instances.map((instance) => names.get(instance.id) ?? '?');
}

test('a job without a matrix is __default', async () => {
  assert.deepEqual(await namesOf('  build:\n    runs-on: x\n    steps: [{ run: echo }]\n'), ['__default']);
});

test('matrix values, depth first, joined by _ and cut to 25 characters', async () => {
  const job = [
    '  build:',
    '    runs-on: x',
    '    strategy:',
    '      matrix:',
    '        include:',
    '          - { tag: alpha, number: 7, flag: true, index: 0, directory: context-68-alpha }',
    '          - { lane: toolu, runner: [self-hosted, toolu-88] }',
    '    steps: [{ run: echo }]',
    '',
  ].join('\n');
  assert.deepEqual(await namesOf(job), ['alpha_7_true_0_context-68', 'toolu_self-hosted_toolu-8']);
});

test('a cross product names jobs after its vectors, not the values include adds', async () => {
  const job = [
    '  build:',
    '    runs-on: x',
    '    strategy:',
    '      matrix:',
    '        os: [linux, mac os]',
    '        node: [18]',
    '        include:',
    '          - { os: linux, extra: yes }',
    '          - { os: windows, node: 22 }',
    '    steps: [{ run: echo }]',
    '',
  ].join('\n');
  // Spaces become _, the unmatched include entry is named after all its values.
  assert.deepEqual(await namesOf(job), ['linux_18', 'mac_os_18', 'windows_22']);
});

test('a leading digit gets _, and equal names get _2, _3', async () => {
  const job = [
    '  build:',
    '    runs-on: x',
    '    strategy:',
    '      matrix:',
    '        v: [aaaaaaaaaaaaaaaaaaaaaaaaaaa1, aaaaaaaaaaaaaaaaaaaaaaaaaaa2, 3.5]',
    '    steps: [{ run: echo }]',
    '',
  ].join('\n');
  assert.deepEqual(await namesOf(job), ['aaaaaaaaaaaaaaaaaaaaaaaaa', 'aaaaaaaaaaaaaaaaaaaaaaa_2', '_3_5']);
});

test('orchestration ids join the plan, the job path and the job name with dots', async () => {
  const [planned] = await plannedJobs('  build:\n    runs-on: x\n    steps: [{ run: echo }]\n');
  assert.ok(planned);
  assert.equal(orchestrationId('p', planned, '__default'), 'p.build.__default');
  assert.equal(orchestrationId('p', { ...planned, path: 'release[1]/publish' }, 'x_1'), 'p.release.publish.x_1');
});
