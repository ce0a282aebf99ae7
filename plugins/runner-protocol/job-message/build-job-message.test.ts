import assert from 'node:assert/strict';
import { test } from 'node:test';
import { decodeContextData, decodeTemplateToken, fromContextData, type JsonObject, type JsonValue } from '../../../core/protocol/index.js';
import { buildJobMessage } from './build-job-message.js';
import { jobIdFor, planIdFor } from './message-ids.js';
import { planFor } from './plan-for.js';
import { testAssignment, TEST_SHA } from '../../../test/support/assignment-builder.js';
import type { JobMessageInput, ServerUrls } from './types.js';

const SERVER: ServerUrls = { api: 'http://127.0.0.1:9090/_svc', publicUrl: 'https://ci.example.test' };

const WORKFLOW = `name: ci
on: push
env:
  TOP: one
permissions:
  contents: read
  id-token: write
jobs:
  build:
    runs-on: [self-hosted, linux]
    env:
      JOB: two
    container:
      image: node:20
      credentials:
        username: bot
        password: \${{ secrets.REGISTRY_TOKEN }}
    services:
      redis:
        image: redis:7
    environment:
      name: staging
      url: \${{ steps.deploy.outputs.url }}
    steps:
      - id: deploy
        run: echo url=https://x >> "$GITHUB_OUTPUT"
`;

async function message(overrides: Partial<JobMessageInput> = {}, workflow = WORKFLOW, instanceId = 'build'): Promise<JsonObject> {
  const assignment = testAssignment(workflow, { instanceId });
  const plan = await planFor(assignment, { serverUrl: SERVER.publicUrl });
  return buildJobMessage({ assignment, plan, serverUrls: SERVER, accessToken: 'job.jwt.token', ...overrides });
}

const field = (value: JsonValue | undefined, key: string): JsonValue | undefined => (value as JsonObject | undefined)?.[key];
const variable = (msg: JsonObject, name: string) => field(msg['variables'], name) as JsonObject | undefined;

test('legacy messages by default: plan version 12, request id, no results dual-write', async () => {
  const msg = await message();
  assert.equal(msg['messageType'], 'PipelineAgentJobRequest');
  assert.deepEqual(msg['plan'], {
    scopeIdentifier: '00000000-0000-0000-0000-000000000000',
    planType: 'actions',
    version: 12,
    planId: planIdFor({ id: 12, runAttempt: 1 }),
    artifactUri: '',
    artifactLocation: '',
  });
  assert.equal(field(msg['timeline'], 'id'), field(msg['plan'], 'planId'));
  assert.equal(msg['jobId'], jobIdFor(planIdFor({ id: 12, runAttempt: 1 }), { id: 34, attempt: 1 }));
  assert.equal(msg['requestId'], 34);
  assert.equal(msg['jobName'], '__default');
  assert.equal(msg['lockedUntil'], new Date(1_700_000_600_000).toISOString());
  assert.deepEqual(variable(msg, 'system.github.results_endpoint'), { value: '' });
  assert.deepEqual(variable(msg, 'system.from_run_service'), { value: 'false' });
});

test('run-service messages carry the results endpoint and request id 0', async () => {
  const msg = await message({ messageType: 'RunnerJobRequest' });
  assert.equal(field(msg['plan'], 'version'), 0);
  assert.equal(msg['requestId'], 0);
  assert.deepEqual(variable(msg, 'system.github.results_endpoint'), { value: 'https://ci.example.test/' });
  assert.deepEqual(variable(msg, 'system.github.launch_endpoint'), { value: 'https://ci.example.test' });
});

test('the system connection points at this server with the job token', async () => {
  const msg = await message({ serverUrls: { ...SERVER, idToken: 'https://ci.example.test/_oidc/' } });
  const endpoint = (field(msg['resources'], 'endpoints') as JsonValue[])[0] as JsonObject;
  assert.equal(endpoint['name'], 'SystemVssConnection');
  assert.equal(endpoint['url'], 'http://127.0.0.1:9090/_svc/');
  assert.deepEqual(endpoint['authorization'], { scheme: 'OAuth', parameters: { AccessToken: 'job.jwt.token' } });
  const data = endpoint['data'] as JsonObject;
  // Cache v1 is served at the public root by runtime-services, whatever the Worker's base is.
  assert.equal(data['CacheServerUrl'], 'https://ci.example.test/');
  assert.equal(data['ResultsServiceUrl'], 'https://ci.example.test/');
  assert.equal(data['GenerateIdTokenUrl'], `https://ci.example.test/_oidc/${String(msg['plan'] && field(msg['plan'], 'planId'))}/${String(msg['jobId'])}?api-version=2.0`);
});

test('the id-token URL defaults to the OIDC route of the public origin', async () => {
  const msg = await message();
  const data = field((field(msg['resources'], 'endpoints') as JsonValue[])[0], 'data') as JsonObject;
  assert.equal(data['GenerateIdTokenUrl'], `https://ci.example.test/_apis/oidc/idtoken/${String(field(msg['plan'], 'planId'))}/${String(msg['jobId'])}?api-version=2.0`);
});

test('no id-token URL without the id-token: write permission', async () => {
  const msg = await message({ serverUrls: { ...SERVER, idToken: 'https://ci.example.test/_oidc' } }, WORKFLOW.replace('  id-token: write\n', ''));
  const endpoint = (field(msg['resources'], 'endpoints') as JsonValue[])[0] as JsonObject;
  assert.equal(field(endpoint['data'], 'GenerateIdTokenUrl'), '');
  assert.deepEqual(variable(msg, 'system.github.token.permissions'), { value: '{"Contents":"read","Metadata":"read"}' });
});

test('env (workflow then job), container, services, outputs and environment are tokens', async () => {
  const msg = await message();
  const env = (msg['environmentVariables'] as JsonValue[]).map((token) => decodeTemplateToken(token));
  assert.deepEqual(
    env.map((token) => (token.type === 2 ? token.entries.map((entry) => (entry.key.type === 0 ? entry.key.value : '')) : [])),
    [['TOP'], ['JOB']],
  );
  const container = decodeTemplateToken(msg['jobContainer']);
  assert.ok(container.type === 2);
  assert.deepEqual(container.entries.map((entry) => (entry.key.type === 0 ? entry.key.value : '')), ['image', 'credentials']);
  assert.equal(decodeTemplateToken(msg['jobServiceContainers']).type, 2);
  assert.equal(msg['jobOutputs'], null);
  assert.equal(msg['snapshot'], null);
  const environment = msg['actionsEnvironment'] as JsonObject;
  assert.equal(environment['name'], 'staging');
  assert.deepEqual(decodeTemplateToken(environment['url']), { type: 3, expression: 'steps.deploy.outputs.url', file: 1, line: 23, col: 12 });
});

test('secrets become secret variables and mask hints; the token is github_token', async () => {
  const msg = await message({ secrets: { REGISTRY_TOKEN: 'p@ss.w0rd+', EMPTY: '' }, githubToken: 'ghs_token' });
  assert.deepEqual(variable(msg, 'REGISTRY_TOKEN'), { value: 'p@ss.w0rd+', isSecret: true });
  assert.deepEqual(variable(msg, 'github_token'), { value: 'ghs_token', isSecret: true });
  assert.deepEqual(variable(msg, 'system.github.token'), { value: 'ghs_token', isSecret: true });
  assert.deepEqual(msg['mask'], [
    { type: 'regex', value: 'job\\.jwt\\.token' },
    { type: 'regex', value: 'ghs_token' },
    { type: 'regex', value: 'p@ss\\.w0rd\\+' },
  ]);
});

test('a secret may not take a variable name or an invalid one', async () => {
  await assert.rejects(message({ secrets: { GITHUB_TOKEN: 'x' } }), /has the name of a job variable/);
  await assert.rejects(message({ secrets: { 'system.github.token': 'x' } }), /not a valid secret name/);
});

test('extra variables override the defaults', async () => {
  const msg = await message({ variables: { actions_uses_cache_service_v2: 'false', 'system.runnerGroupName': { value: 'gpu' } } });
  assert.deepEqual(variable(msg, 'actions_uses_cache_service_v2'), { value: 'false' });
  assert.deepEqual(variable(msg, 'system.runnerGroupName'), { value: 'gpu' });
});

test('given ids are used; ids that are not GUIDs are refused', async () => {
  const ids = { planId: '11111111-2222-4333-8444-555555555555', jobId: '66666666-7777-4888-8999-aaaaaaaaaaaa' };
  const msg = await message({ ids });
  assert.equal(field(msg['plan'], 'planId'), ids.planId);
  assert.equal(field(msg['timeline'], 'id'), ids.planId);
  assert.equal(msg['jobId'], ids.jobId);
  await assert.rejects(message({ ids: { jobId: 'job-1' } }), /jobId must be a lower-case GUID/);
  await assert.rejects(message({ accessToken: '' }), /access token/);
});

test('contexts: github from the run, matrix and strategy of the instance, needs given', async () => {
  const workflow = `on: push
jobs:
  setup:
    runs-on: x
    steps: [{ run: echo }]
  test:
    needs: setup
    runs-on: x
    strategy:
      matrix:
        node: [18, 20]
    steps: [{ run: echo }]
`;
  const needs = { setup: { result: 'success' as const, outputs: { v: '1' } }, other: { result: 'failure' as const, outputs: {} } };
  const msg = await message({ needs }, workflow, 'test[1]');
  const context = (name: string) => fromContextData(decodeContextData(field(msg['contextData'], name) ?? null));
  assert.deepEqual(context('matrix'), { node: 20 });
  assert.deepEqual(context('strategy'), { 'fail-fast': true, 'job-index': 1, 'job-total': 2, 'max-parallel': 2 });
  assert.deepEqual(context('needs'), { setup: { result: 'success', outputs: { v: '1' } } });
  const github = context('github') as JsonObject;
  assert.equal(github['sha'], TEST_SHA);
  assert.equal(github['run_id'], '12');
  assert.equal(github['server_url'], 'https://ci.example.test');
  assert.deepEqual(context('job'), {
    check_run_id: 34,
    workflow_ref: 'acme/widgets/.github/workflows/ci.yml@refs/heads/main',
    workflow_sha: TEST_SHA,
    workflow_repository: 'acme/widgets',
    workflow_file_path: '.github/workflows/ci.yml',
  });
  assert.equal(msg['jobName'], '_20');
  assert.equal(msg['jobDisplayName'], 'test (20)');
});

test("the operator's token ceiling caps what the runner prints and drops the id-token URL", async () => {
  const assignment = testAssignment(WORKFLOW.replace('  contents: read\n', '  contents: write\n  pull-requests: write\n'), { instanceId: 'build' });
  const plan = await planFor(assignment, { serverUrl: SERVER.publicUrl, ceiling: { default: 'read', 'id-token': 'none', allow_create_approve_pr: false } });
  assert.deepEqual(plan.cappedPermissions, [
    { scope: 'contents', requested: 'write', allowed: 'read' },
    { scope: 'id-token', requested: 'write', allowed: 'none' },
    { scope: 'pull-requests', requested: 'write', allowed: 'read' },
  ]);
  const msg = buildJobMessage({ assignment, plan, serverUrls: SERVER, accessToken: 'job.jwt.token' });
  assert.deepEqual(variable(msg, 'system.github.token.permissions'), { value: '{"Contents":"read","Metadata":"read","PullRequests":"read"}' });
  const endpoint = (field(msg['resources'], 'endpoints') as JsonValue[])[0] as JsonObject;
  assert.equal(field(endpoint['data'], 'GenerateIdTokenUrl'), '');
});

test('a ceiling caps the default set of a workflow without permissions', async () => {
  const assignment = testAssignment(WORKFLOW.replace(/permissions:\n(  .*\n)+/, ''), { instanceId: 'build' });
  const plan = await planFor(assignment, { serverUrl: SERVER.publicUrl, ceiling: { packages: 'none' } });
  const msg = buildJobMessage({ assignment, plan, serverUrls: SERVER, accessToken: 'job.jwt.token' });
  assert.deepEqual(variable(msg, 'system.github.token.permissions'), { value: '{"Contents":"read","Metadata":"read"}' });
});
