/**
 * `workflow_dispatch` inputs of a local submission (`POST /api/v1/runs`, what `svc run` sends),
 * checked as GitHub's dispatch API checks them: declared defaults fill omitted inputs (required
 * ones too), values convert to their declared type, and an input the workflow does not declare,
 * a required one missing or a value that does not convert is a 422 naming it, with no run made.
 */
import assert from 'node:assert/strict';
import { describe, it, type TestContext } from 'node:test';
import { isolateGitConfig } from '../snapshots/support.js';
import { getRun, localRunsHost, makeWorkTree, submitRun, uploadWorkTree, type LocalRunsHost } from './support.js';

isolateGitConfig();

const DEPLOY = '.github/workflows/deploy-manual.yml';
const WORKFLOW = `name: Deploy
run-name: deploy \${{ inputs.level }} x\${{ inputs.count }} dry=\${{ inputs.dry-run }} to \${{ inputs.target }}
on:
  workflow_dispatch:
    inputs:
      level:
        type: choice
        options: [info, warning, debug]
        required: true
        default: warning
      dry-run:
        type: boolean
      target:
        type: environment
        required: true
      count:
        type: number
        required: true
        default: 2
jobs:
  deploy:
    runs-on: self-hosted
    steps:
      - run: echo deploying
`;

async function uploaded(t: TestContext): Promise<{ h: LocalRunsHost; submit: (extra: Record<string, unknown>) => ReturnType<typeof submitRun> }> {
  const h = await localRunsHost(t);
  const { status, body } = await uploadWorkTree(h, await makeWorkTree(t, { [DEPLOY]: WORKFLOW }));
  assert.equal(status, 201, JSON.stringify(body));
  const base = { repository: 'acme/app', snapshot: String(body['sha']), workflow: DEPLOY, event: 'workflow_dispatch' };
  return { h, submit: (extra) => submitRun(h, { ...base, ...extra }) };
}

function runIdOf(body: Record<string, unknown>): number {
  const [run] = body['runs'] as { run_id: number }[];
  assert.ok(run, JSON.stringify(body));
  return run.run_id;
}

describe('POST /api/v1/runs: workflow_dispatch inputs', () => {
  it('fills omitted inputs from their defaults, required ones included, and types the values', async (t) => {
    const { h, submit } = await uploaded(t);
    const created = await submit({ inputs: { target: 'production' } });
    assert.equal(created.status, 201, JSON.stringify(created.body));
    const runId = runIdOf(created.body);
    assert.equal((await getRun(h, runId)).status, 'queued');
    const run = await h.engine.getRun(runId);
    assert.equal(run?.displayTitle, 'deploy warning x2 dry=false to production', 'the inputs context: defaults, a number and a boolean');

    const given = await submit({ inputs: { level: 'debug', 'dry-run': true, target: 'staging', count: '5' } });
    assert.equal(given.status, 201, JSON.stringify(given.body));
    assert.equal((await h.engine.getRun(runIdOf(given.body)))?.displayTitle, 'deploy debug x5 dry=true to staging');
  });

  it('422 invalid_inputs naming every input the workflow does not declare, and no run', async (t) => {
    const { submit } = await uploaded(t);
    const first = runIdOf((await submit({ inputs: { target: 'production' } })).body);

    const unexpected = await submit({ inputs: { target: 'production', environment: 'prod', verbose: true } });
    assert.equal(unexpected.status, 422, JSON.stringify(unexpected.body));
    assert.equal(unexpected.body['code'], 'invalid_inputs');
    assert.equal(unexpected.body['message'], `the workflow_dispatch inputs do not fit ${DEPLOY}: Unexpected inputs provided: ["environment", "verbose"]`);
    assert.deepEqual(unexpected.body['details'], { workflow: DEPLOY, errors: ['Unexpected inputs provided: ["environment", "verbose"]'] });

    // `svc run --payload` puts them in the payload's inputs: the same check.
    const inPayload = await submit({ payload: { inputs: { target: 'production', tag: 'v1' } } });
    assert.equal(inPayload.status, 422);
    assert.match(String(inPayload.body['message']), /Unexpected inputs provided: \["tag"\]$/);

    assert.equal(runIdOf((await submit({ inputs: { target: 'production' } })).body), first + 1, 'the refusals created no run');
  });

  it('422 invalid_inputs for a required input without a default, and for values that do not convert', async (t) => {
    const { submit } = await uploaded(t);
    const missing = await submit({});
    assert.equal(missing.status, 422);
    assert.equal(missing.body['code'], 'invalid_inputs');
    assert.deepEqual((missing.body['details'] as { errors: string[] }).errors, ["Required input 'target' not provided"]);

    const wrong = await submit({ inputs: { target: 'production', 'dry-run': 'yes', level: 'trace', count: 'many' } });
    assert.equal(wrong.status, 422);
    assert.deepEqual((wrong.body['details'] as { errors: string[] }).errors, [
      "Provided value 'trace' for input 'level' not in the list of allowed values: [info, warning, debug]",
      "Provided value 'yes' for input 'dry-run' not in the list of allowed values: [true, false]",
      "input 'count' must be a number, got 'many'",
    ]);
  });
});
