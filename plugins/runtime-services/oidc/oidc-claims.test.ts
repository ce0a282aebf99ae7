import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { RuntimeJobContext } from '../../../core/ports/index.js';
import { defaultAudience, jobClaims, subjectOf } from './oidc-claims.js';

const context: RuntimeJobContext = {
  repository: 'acme/widgets',
  ref: 'refs/heads/main',
  sha: 'a'.repeat(40),
  eventName: 'push',
  defaultBranchRef: 'refs/heads/main',
  baseRef: undefined,
  cacheMode: 'write',
  permissions: { 'id-token': 'write' },
  environment: undefined,
  jobWorkflow: { repository: 'acme/shared', path: '.github/workflows/deploy.yml', ref: 'refs/tags/v1', sha: 'b'.repeat(40) },
  github: { server_url: 'http://svc.localhost:9090', actor: 'octo', run_id: '7', ref_type: 'branch', ref_protected: 'false' },
  runnerEnvironment: 'self-hosted',
};

test("subjects follow GitHub's order: environment, then pull_request, then the ref", () => {
  assert.equal(subjectOf(context), 'repo:acme/widgets:ref:refs/heads/main');
  assert.equal(subjectOf({ ...context, eventName: 'pull_request', ref: 'refs/pull/1/merge' }), 'repo:acme/widgets:pull_request');
  assert.equal(subjectOf({ ...context, eventName: 'pull_request', environment: 'prod' }), 'repo:acme/widgets:environment:prod');
  assert.equal(subjectOf({ ...context, eventName: 'pull_request_target' }), 'repo:acme/widgets:ref:refs/heads/main');
});

test('claims: github context values, the called workflow as job_workflow_ref, the owner URL as audience', () => {
  const claims = jobClaims(context);
  assert.equal(claims['job_workflow_ref'], 'acme/shared/.github/workflows/deploy.yml@refs/tags/v1');
  assert.equal(claims['job_workflow_sha'], 'b'.repeat(40));
  assert.deepEqual([claims['actor'], claims['run_id'], claims['ref_protected'], claims['runner_environment']], ['octo', '7', 'false', 'self-hosted']);
  assert.equal(claims['environment'], undefined);
  assert.equal(jobClaims({ ...context, environment: 'prod' })['environment'], 'prod');
  assert.equal(defaultAudience(context), 'http://svc.localhost:9090/acme');
});
