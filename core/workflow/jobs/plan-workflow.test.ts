import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { loadWorkflow } from '../parser/index.js';
import { localEvent } from './local-event.js';
import { planWorkflow } from './plan-workflow.js';
import type { PlanOptions } from './run-contexts.js';
import type { WorkflowPlan } from './types.js';

const PUSH = localEvent({ repository: 'octo/app', ref: 'refs/heads/main', sha: 'a'.repeat(40), actor: 'mona' });

async function plan(yaml: string, options: Partial<PlanOptions> = {}): Promise<WorkflowPlan> {
  const loaded = await loadWorkflow({ name: '.github/workflows/ci.yml', content: yaml });
  assert.deepEqual(loaded.errors, []);
  return planWorkflow(loaded, { event: PUSH, ...options });
}

const BUILD = 'jobs:\n  build:\n    runs-on: x\n    steps: [{ run: make }]\n';

describe('planWorkflow: the workflow level', () => {
  it('evaluates run-name and concurrency with github, inputs and vars', async () => {
    const result = await plan(
      `name: CI\nrun-name: Deploy to \${{ vars.TARGET }} by @\${{ github.actor }}\non: push\nconcurrency:\n  group: \${{ github.workflow }}-\${{ github.ref }}\n  cancel-in-progress: \${{ github.ref != 'refs/heads/main' }}\n${BUILD}`,
      { vars: { TARGET: 'prod' } },
    );
    assert.equal(result.name, 'CI');
    assert.equal(result.runName, 'Deploy to prod by @mona');
    assert.deepEqual(result.concurrency, { group: 'CI-refs/heads/main', key: 'ci-refs/heads/main', cancelInProgress: false, queue: 'single' });
    assert.deepEqual(result.errors, []);
  });

  it('reads queue: max, and refuses it once evaluated beside a cancel-in-progress that is true', async () => {
    const queued = await plan(`on: push\nconcurrency:\n  group: deploy\n  queue: \${{ vars.QUEUE }}\n${BUILD}`, { vars: { QUEUE: 'max' } });
    assert.deepEqual(queued.concurrency, { group: 'deploy', key: 'deploy', cancelInProgress: false, queue: 'max' });
    const both = await plan(`on: push\nconcurrency:\n  group: deploy\n  queue: max\n  cancel-in-progress: \${{ github.ref == 'refs/heads/main' }}\n${BUILD}`);
    assert.equal(both.concurrency, undefined);
    assert.deepEqual(both.errors.map((e) => [e.line, e.message]), [[3, "'queue: max' cannot be combined with 'cancel-in-progress: true'."]]);
    const unknown = await plan(`on: push\nconcurrency:\n  group: deploy\n  queue: \${{ vars.QUEUE }}\n${BUILD}`, { vars: { QUEUE: 'all' } });
    assert.deepEqual(unknown.errors.map((e) => e.message), ["Unexpected value 'all'"], 'the schema checks the evaluated value, as GitHub does');
  });

  it('takes a string concurrency as the group, and refuses an empty one', async () => {
    assert.deepEqual((await plan(`on: push\nconcurrency: deploy\n${BUILD}`)).concurrency, { group: 'deploy', key: 'deploy', cancelInProgress: false, queue: 'single' });
    const empty = await plan(`on: push\nconcurrency: \${{ vars.MISSING }}\n${BUILD}`);
    assert.equal(empty.concurrency, undefined);
    assert.deepEqual(empty.errors.map((e) => [e.line, e.message]), [[2, 'Concurrency group name cannot be empty']]);
  });

  it('keeps permissions, defaults and env (env may read secrets: the runner evaluates it)', async () => {
    const result = await plan(`on: push\npermissions: { contents: read }\ndefaults: { run: { shell: bash } }\nenv: { TOKEN: "\${{ secrets.T }}" }\n${BUILD}`);
    assert.deepEqual(result.permissions, { contents: 'read' });
    assert.deepEqual(result.jobs[0]?.instances[0]?.permissions, { contents: 'read' });
    assert.ok(result.defaults !== undefined && result.env !== undefined);
    assert.deepEqual(result.jobs[0]?.instances[0]?.env, [result.env]);
    assert.deepEqual(result.jobs[0]?.instances[0]?.defaults, [result.defaults]);
  });

  it('resolves workflow_dispatch inputs into the inputs context and the payload', async () => {
    const yaml = `on:\n  workflow_dispatch:\n    inputs:\n      level: { type: choice, options: [info, debug], default: info }\n      dry: { type: boolean }\nrun-name: \${{ inputs.level }} \${{ inputs.dry }}\n${BUILD}`;
    const event = localEvent({ name: 'workflow_dispatch', repository: 'octo/app', ref: 'refs/heads/main', sha: 'b'.repeat(40), actor: 'mona' });
    const result = await plan(yaml, { event, inputs: { dry: 'true' } });
    assert.deepEqual(result.inputs, { level: 'info', dry: true });
    assert.deepEqual(result.github.event['inputs'], { level: 'info', dry: 'true' });
    assert.equal(result.runName, 'info true');
    assert.equal(result.trigger.status, 'triggered');
    const bad = await plan(yaml, { event, inputs: { level: 'trace' } });
    assert.deepEqual(bad.inputErrors, ["Provided value 'trace' for input 'level' not in the list of allowed values: [info, debug]"]);
    assert.deepEqual(bad.errors, [], "the dispatch's fault, not the file's");
    const extra = { level: 'debug', verbose: 'yes' };
    assert.deepEqual((await plan(yaml, { event, inputs: extra })).inputErrors, [], 'kept by default (the forge-shaped dispatch)');
    const refused = await plan(yaml, { event, inputs: extra, unexpectedInputs: 'refuse' });
    assert.deepEqual(refused.inputErrors, ['Unexpected inputs provided: ["verbose"]']);
  });
});

describe('planWorkflow: triggers', () => {
  it('plans a workflow the event does not trigger, saying why', async () => {
    const result = await plan(`on:\n  push:\n    branches: [release/*]\n${BUILD}`);
    assert.equal(result.trigger.status, 'skipped');
    assert.equal(result.jobCount, 1);
  });

  it('cannot tell for a pull request without its base branch when branches are filtered', async () => {
    const event = localEvent({ name: 'pull_request', repository: 'octo/app', ref: 'refs/heads/topic', sha: 'c'.repeat(40), actor: 'mona' });
    const result = await plan(`on:\n  pull_request:\n    branches: [main]\n${BUILD}`, { event });
    assert.equal(result.trigger.status, 'undetermined');
    assert.equal(result.github.ref, 'refs/heads/topic');
    assert.equal(result.github.base_ref, '');
  });
});

describe('planWorkflow: called workflows not loaded', () => {
  it('warns that a calling job without a loaded workflow has no jobs in the plan', async () => {
    const result = await plan('on: push\njobs:\n  lib:\n    uses: octo/lib/.github/workflows/lib.yml@v1\n');
    assert.deepEqual(result.warnings, ["job 'lib' calls octo/lib/.github/workflows/lib.yml@v1, which was not loaded: its jobs are not in the plan"]);
    assert.equal(result.jobs[0]?.instances[0]?.call?.loaded, false);
    assert.equal(result.jobCount, 0);
  });
});
