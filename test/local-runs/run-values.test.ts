/**
 * Secrets and variables of a local submission (`POST /api/v1/runs`): with the secrets plugin the
 * run is planned with its vars (stored, then run-supplied on top) and checked against the secret
 * names it can read (a required `workflow_call` secret `secrets: inherit` cannot provide fails the
 * run with GitHub's message); run-supplied values are kept sealed with the run. Without the
 * plugin, a submission that brings values is refused, naming them.
 */
import assert from 'node:assert/strict';
import { describe, it, type TestContext } from 'node:test';
import { isolateGitConfig } from '../snapshots/support.js';
import { getRun, localRunsHost, makeWorkTree, submitRun, uploadWorkTree, type LocalRunsHost } from './support.js';

isolateGitConfig();

const CI = '.github/workflows/values.yml';
const WORKFLOW = `on: push
jobs:
  build:
    runs-on: \${{ vars.RUNNER }}
    steps: [{ run: 'echo \${{ secrets.TOKEN }}' }]
  deploy:
    if: vars.DEPLOY == 'yes'
    runs-on: self-hosted
    steps: [{ run: deploy }]
  lib:
    uses: ./.github/workflows/lib.yml
    secrets: inherit
`;
const LIB = `on:
  workflow_call:
    secrets:
      TOKEN: { required: true }
jobs:
  use:
    runs-on: self-hosted
    steps: [{ run: use }]
`;

async function uploaded(t: TestContext, plugins: readonly string[]): Promise<{ h: LocalRunsHost; submit: (extra: Record<string, unknown>) => ReturnType<typeof submitRun> }> {
  const h = await localRunsHost(t, {}, plugins);
  const { status, body } = await uploadWorkTree(h, await makeWorkTree(t, { [CI]: WORKFLOW, '.github/workflows/lib.yml': LIB }));
  assert.equal(status, 201, JSON.stringify(body));
  return { h, submit: (extra) => submitRun(h, { repository: 'acme/app', snapshot: String(body['sha']), workflow: CI, ...extra }) };
}

async function put(h: LocalRunsHost, path: string, value: string): Promise<void> {
  const response = await fetch(`${h.base}/api/v1/${path}`, { method: 'PUT', headers: { ...h.auth, 'content-type': 'application/json' }, body: JSON.stringify({ value }) });
  assert.equal(response.status, 204, await response.text());
}

function runIdOf(body: Record<string, unknown>): number {
  const [run] = body['runs'] as { run_id: number }[];
  assert.ok(run, JSON.stringify(body));
  return run.run_id;
}

describe('POST /api/v1/runs: secrets and vars', () => {
  it('plans with stored and run-supplied vars, keeps run-supplied values sealed, and fails a run whose inherit lacks a required secret', async (t) => {
    const { h, submit } = await uploaded(t, ['secrets']);
    await put(h, 'variables/RUNNER?repo=acme/app', 'self-hosted');
    await put(h, 'variables/DEPLOY', 'no');

    // No TOKEN anywhere: the called workflow's required secret fails the run at creation.
    const missing = await submit({});
    assert.equal(missing.status, 422, JSON.stringify(missing.body));
    assert.equal(missing.body['code'], 'invalid_workflow');
    assert.match(String(missing.body['message']), /values\.yml:11:11: Secret TOKEN is required, but not provided while calling\./);
    const failed = await h.engine.getRun(Number((missing.body['details'] as { run_id: number }).run_id));
    assert.equal(failed?.status, 'failure', 'recorded as a failed run, as GitHub does');

    // Run-supplied: the secret's name satisfies the check; the variable overrides the stored one.
    const created = await submit({ secrets: { TOKEN: 'supplied-token-value' }, vars: { DEPLOY: 'yes' } });
    assert.equal(created.status, 201, JSON.stringify(created.body));
    const runId = runIdOf(created.body);
    const run = await h.engine.getRun(runId);
    assert.deepEqual(run?.vars, { RUNNER: 'self-hosted', DEPLOY: 'yes' });
    assert.deepEqual(run?.secretNames, ['TOKEN']);
    const supplied = await h.engine.runSuppliedValues(runId);
    assert.deepEqual([supplied?.secretNames, supplied?.varNames], [['TOKEN'], ['DEPLOY']]);
    assert.ok(supplied?.sealed?.startsWith('l1.') && !supplied.sealed.includes('supplied-token-value'));
    const jobs = (await getRun(h, runId)).jobs.map((job) => [job.name, job.status]);
    assert.deepEqual(jobs.find(([name]) => name === 'deploy'), ['deploy', 'queued'], 'job-level if: read the run-supplied var');

    // A stored TOKEN satisfies it too.
    await put(h, 'secrets/TOKEN', 'stored-token-value');
    const stored = await submit({});
    assert.equal((await h.engine.getRun(runIdOf(stored.body)))?.status, 'queued');
  });

  it('without the secrets plugin: 400 secrets_unavailable naming what was given, never a value', async (t) => {
    const { submit } = await uploaded(t, []);
    const refused = await submit({ secrets: { TOKEN: 'never-shown' }, vars: { RUNNER: 'x' } });
    assert.equal(refused.status, 400, JSON.stringify(refused.body));
    assert.equal(refused.body['code'], 'secrets_unavailable');
    assert.match(String(refused.body['message']), /need the secrets plugin.*TOKEN, RUNNER/);
    assert.doesNotMatch(JSON.stringify(refused.body), /never-shown/);
  });
});
