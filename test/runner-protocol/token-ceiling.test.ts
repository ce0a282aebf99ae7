/**
 * The operator's `[token_permissions_ceiling]` (spec Authentication rule 13) in the job message a
 * runner polls: what the runner prints under "GITHUB_TOKEN Permissions"
 * (`system.github.token.permissions`) is the capped set, and a job whose `id-token: write` was
 * capped gets no OIDC URL. The same workflow without the table keeps its levels. The outcome is
 * the message's, the same on every store: SQLite only.
 */
import assert from 'node:assert/strict';
import { describe, it, type TestContext } from 'node:test';
import { job, runInput } from '../support/run-builder.js';
import { operatorConfigEnv } from '../support/operator-config.js';
import { listeningRunner, WORKFLOW_PATH } from './listener-fixture.js';
import { runnerHost } from './runner-host.js';

const WORKFLOW = `name: CI
on: push
permissions:
  contents: write
  pull-requests: write
  id-token: write
  issues: read
jobs:
  build:
    runs-on: [self-hosted, linux]
    steps:
      - run: echo hello
`;

interface Delivered {
  readonly permissions: unknown;
  readonly idTokenUrl: unknown;
}

async function deliveredJob(t: TestContext, config: string | undefined): Promise<Delivered> {
  const env = config === undefined ? {} : await operatorConfigEnv(t, config);
  const h = await runnerHost(t, { env, plugin: { timings: { pollHoldMs: 1500 } } });
  const listener = await listeningRunner(h, 'build-01');
  await h.engine.createRun(runInput([job('build', { runsOn: ['self-hosted', 'linux'] })], { files: [{ path: WORKFLOW_PATH, content: WORKFLOW }] }));
  const message = await listener.nextMessage();
  const variables = message.body['variables'] as Record<string, { value: string }>;
  const endpoints = (message.body['resources'] as { endpoints: { data: Record<string, string> }[] }).endpoints;
  return { permissions: variables['system.github.token.permissions']?.value, idTokenUrl: endpoints[0]?.data['GenerateIdTokenUrl'] };
}

describe('token permission ceiling in the job message', () => {
  it('without [token_permissions_ceiling] the workflow levels reach the runner', async (t) => {
    const delivered = await deliveredJob(t, undefined);
    assert.equal(delivered.permissions, '{"Contents":"write","IdToken":"write","Issues":"read","Metadata":"read","PullRequests":"write"}');
    assert.match(String(delivered.idTokenUrl), /\/_apis\/oidc\/idtoken\//);
  });

  it('with it, each scope is capped at its key or default, pull requests at read, and id-token: none drops the OIDC URL', async (t) => {
    const config = '[token_permissions_ceiling]\ndefault = "read"\ncontents = "write"\nid-token = "none"\nallow_create_approve_pr = false\n';
    const delivered = await deliveredJob(t, config);
    assert.equal(delivered.permissions, '{"Contents":"write","Issues":"read","Metadata":"read","PullRequests":"read"}');
    assert.equal(delivered.idTokenUrl, '');
  });
});
