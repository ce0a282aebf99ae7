import assert from 'node:assert/strict';
import { test } from 'node:test';
import { buildJobMessage } from './build-job-message.js';
import { planFor } from './plan-for.js';
import { TEST_SHA, testAssignment } from '../../../test/support/assignment-builder.js';

const CALLER = `on: push
jobs:
  local:
    uses: ./.github/workflows/called.yml
  remote:
    uses: other/tools/.github/workflows/lint.yml@v1
`;
const CALLED = `on: workflow_call
jobs:
  inner:
    runs-on: x
    steps: [{ run: echo }]
`;
const TOOLS_SHA = 'c'.repeat(40);
const files = { '.github/workflows/called.yml': CALLED, 'other/tools/.github/workflows/lint.yml@v1': { content: CALLED, commit: { ref: 'refs/tags/v1', sha: TOOLS_SHA } } };

test('jobs of called workflows are found, with the called file as their source', async () => {
  const local = await planFor(testAssignment(CALLER, { instanceId: 'local/inner', files }), { serverUrl: 'https://ci.example.test' });
  assert.deepEqual(local.fileTable, [
    '.github/workflows/ci.yml',
    `acme/widgets/.github/workflows/called.yml@${TEST_SHA}`,
    `other/tools/.github/workflows/lint.yml@${TOOLS_SHA}`,
  ]);
  assert.deepEqual(local.source, { repository: 'acme/widgets', path: '.github/workflows/called.yml', ref: 'refs/heads/main', sha: TEST_SHA, called: true });
  assert.equal(local.instance.name, 'local / inner');

  const assignment = testAssignment(CALLER, { instanceId: 'remote/inner', files });
  const remote = await planFor(assignment, { serverUrl: 'https://ci.example.test' });
  assert.deepEqual(remote.source, { repository: 'other/tools', path: '.github/workflows/lint.yml', ref: 'refs/tags/v1', sha: TOOLS_SHA, called: true });
  const message = buildJobMessage({ assignment, plan: remote, serverUrls: { api: 'http://h/', publicUrl: 'http://h' }, accessToken: 't' });
  const variables = message['variables'];
  assert.deepEqual((variables as Record<string, unknown>)['system.workflowFileFullPath'], { value: 'other/tools/.github/workflows/lint.yml' });
  assert.deepEqual((variables as Record<string, unknown>)['system.workflowFileRef'], { value: 'refs/tags/v1' });
  assert.deepEqual((variables as Record<string, unknown>)['system.workflowFileSha'], { value: TOOLS_SHA });
  const job = JSON.stringify((message['contextData'] as Record<string, unknown>)['job']);
  assert.ok(job.includes(`other/tools/.github/workflows/lint.yml@refs/tags/v1`) && job.includes(TOOLS_SHA), job);
  const orchestration = (variables as Record<string, { value: string }>)['system.orchestrationId'];
  assert.match(orchestration?.value ?? '', /^[0-9a-f-]{36}\.remote\.inner\.__default$/);
});

test('a called file of another repository kept without its commit (a run created before commits were kept) names the ref as its commit', async () => {
  const assignment = testAssignment(CALLER, { instanceId: 'remote/inner', files: { ...files, 'other/tools/.github/workflows/lint.yml@v1': CALLED } });
  const remote = await planFor(assignment, { serverUrl: 'https://ci.example.test' });
  assert.deepEqual(remote.source, { repository: 'other/tools', path: '.github/workflows/lint.yml', ref: 'v1', sha: 'v1', called: true });
});

test('a job whose fields wait for needs is expanded with them', async () => {
  const workflow = `on: push
jobs:
  setup:
    runs-on: x
    outputs: { label: '\${{ steps.s.outputs.label }}' }
    steps: [{ id: s, run: echo }]
  build:
    needs: setup
    runs-on: \${{ needs.setup.outputs.label }}
    steps: [{ run: echo }]
`;
  const assignment = testAssignment(workflow, { instanceId: 'build' });
  const waiting = await planFor(assignment, { serverUrl: 'https://ci.example.test' });
  assert.equal(waiting.instance.runsOn, undefined);
  const needs = { setup: { result: 'success' as const, outputs: { label: 'gpu' } } };
  const expanded = await planFor(assignment, { serverUrl: 'https://ci.example.test', needs });
  assert.deepEqual(expanded.instance.runsOn, { labels: ['gpu'] });
});

test('a run without its workflow file, or a job the plan no longer has, is an error', async () => {
  const assignment = testAssignment(CALLED, { instanceId: 'inner' });
  await assert.rejects(planFor({ ...assignment, files: new Map() }, { serverUrl: 'https://ci.example.test' }), /no stored workflow file/);
  await assert.rejects(planFor(testAssignment(CALLED, { instanceId: 'gone' }), { serverUrl: 'https://ci.example.test' }), /'gone' of run 12 is not in the plan/);
  await assert.rejects(planFor(testAssignment('jobs: {', { instanceId: 'x' }), { serverUrl: 'https://ci.example.test' }), /no longer loads/);
});
