import assert from 'node:assert/strict';
import { test } from 'node:test';
import { decodeContextData, fromContextData, type JsonObject } from '../../../core/protocol/index.js';
import { testAssignment } from '../../../test/support/assignment-builder.js';
import { buildJobMessage } from './build-job-message.js';
import { cacheModeFor } from './cache-mode.js';
import { jobServer, passesToolkitHostGate } from './job-server.js';
import { planFor } from './plan-for.js';

test('the toolkit host gate: github.com, *.ghe.com and *.localhost pass, nothing else', () => {
  for (const url of ['https://github.com', 'https://acme.ghe.com', 'http://svc.localhost:9090', 'https://CI.GHE.LOCALHOST']) assert.ok(passesToolkitHostGate(url), url);
  for (const url of ['http://127.0.0.1:9090', 'http://localhost:9090', 'https://ci.example.com', 'https://ghe.com.evil.test']) assert.ok(!passesToolkitHostGate(url), url);
});

test('a loopback public URL is shown to jobs as svc.localhost; the API URLs keep the real address', () => {
  assert.deepEqual(jobServer('http://127.0.0.1:9090'), {
    serverUrl: 'http://svc.localhost:9090',
    apiUrl: 'http://127.0.0.1:9090/api/v3',
    graphqlUrl: 'http://127.0.0.1:9090/api/graphql',
  });
  assert.equal(jobServer('http://[::1]:8080/').serverUrl, 'http://svc.localhost:8080');
  assert.equal(jobServer('http://localhost:9090').serverUrl, 'http://svc.localhost:9090');
});

test('a public URL that passes the gate, or any other host, is kept as it is', () => {
  assert.deepEqual(jobServer('https://ci.ghe.localhost'), { serverUrl: 'https://ci.ghe.localhost' });
  assert.deepEqual(jobServer('https://ci.example.com/'), { serverUrl: 'https://ci.example.com' });
});

test('the job message carries the aliased server_url and the real api_url', async () => {
  const assignment = testAssignment('on: push\njobs:\n  build:\n    runs-on: self-hosted\n    steps:\n      - run: true\n', { instanceId: 'build' });
  const plan = await planFor(assignment, { serverUrl: 'http://127.0.0.1:9090' });
  const msg = buildJobMessage({ assignment, plan, serverUrls: { api: 'http://127.0.0.1:9090/', publicUrl: 'http://127.0.0.1:9090' }, accessToken: 'job.jwt' });
  const github = fromContextData(decodeContextData((msg['contextData'] as JsonObject)['github'] ?? null)) as JsonObject;
  assert.equal(github['server_url'], 'http://svc.localhost:9090');
  assert.equal(github['api_url'], 'http://127.0.0.1:9090/api/v3');
  assert.equal(github['repositoryUrl'], 'git://svc.localhost:9090/acme/widgets.git');
});

test('cache mode: write, read-only for triggers outsiders fire on the default branch', async () => {
  assert.equal(cacheModeFor('push'), 'write');
  assert.equal(cacheModeFor('pull_request'), 'write');
  for (const event of ['pull_request_target', 'issue_comment', 'workflow_run']) assert.equal(cacheModeFor(event), 'read', event);
  const assignment = testAssignment('on: issue_comment\njobs:\n  build:\n    runs-on: self-hosted\n    steps:\n      - run: true\n', { instanceId: 'build', event: 'issue_comment' });
  const plan = await planFor(assignment, { serverUrl: 'https://ci.example.test' });
  const msg = buildJobMessage({ assignment, plan, serverUrls: { api: 'https://ci.example.test/', publicUrl: 'https://ci.example.test' }, accessToken: 'job.jwt' });
  assert.deepEqual((msg['variables'] as JsonObject)['actions_cache_mode'], { value: 'read' });
  assert.deepEqual((msg['variables'] as JsonObject)['actions_runner_allow_artifacts_file'], { value: 'true' });
});
