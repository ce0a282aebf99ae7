/**
 * Remote actions end to end: the server's local mirror (SVC_ACTIONS_MIRROR_DIR, bare repositories
 * made here with git) serves `acme/greet@v1`, a composite that uses `acme/tools/js@v1`; the worker
 * resolves both through the job's wire (legacy `actiondownloadinfo`, then the run service's
 * `runnerresolve/actions`), downloads the tarballs into `_work/_actions/<owner>/<repo>/<ref>`, and
 * a second job on the same runner downloads nothing. An action nobody has fails "Set up job" with
 * the server's reason.
 */
import assert from 'node:assert/strict';
import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it, type TestContext } from 'node:test';
import { runnerHost } from '../runner-protocol/runner-host.js';
import { actionRun, runActionJob, runnerRoot } from './fixtures/actions-e2e.js';
import { mirrorDir, mirrorRepository } from './fixtures/actions-mirror.js';
import { jobOf } from './fixtures/worker-harness.js';

function buildActionsMirror(t: TestContext): { readonly dir: string; readonly greetSha: string; readonly toolsSha: string } {
  const dir = mirrorDir(t);
  const greetSha = mirrorRepository(dir, 'acme/greet', {
    'action.yml': `name: greet
inputs:
  who:
    default: world
outputs:
  said:
    value: \${{ steps.js.outputs.said }}
runs:
  using: composite
  steps:
    - run: echo "greet composite for \${{ inputs.who }} from $(basename "$(dirname "$GITHUB_ACTION_PATH")")"
      shell: bash
    - id: js
      uses: acme/tools/js@v1
      with:
        who: \${{ inputs.who }}
`,
  });
  const toolsSha = mirrorRepository(dir, 'acme/tools', {
    'js/action.yml': 'name: js\ninputs:\n  who:\n    default: pre-who\nruns:\n  using: node20\n  pre: pre.js\n  main: index.js\n  post: post.js\n',
    'js/pre.js': "require('fs').appendFileSync(process.env.GITHUB_STATE, 'from_pre=yes\\n'); console.log('remote pre ran for ' + process.env.INPUT_WHO);",
    'js/index.js': "require('fs').appendFileSync(process.env.GITHUB_OUTPUT, 'said=js says hi to ' + process.env.INPUT_WHO + '\\n'); console.log('remote js ran from ' + __dirname + ' pre-state=' + (process.env.STATE_from_pre ?? '-'));",
    'js/post.js': "console.log('remote post ran for ' + process.env.INPUT_WHO + ' pre-state=' + (process.env.STATE_from_pre ?? '-'));",
  });
  return { dir, greetSha, toolsSha };
}

const WORKFLOW = `name: ci
on: push
jobs:
  first:
    runs-on: [self-hosted]
    outputs:
      said: \${{ steps.g.outputs.said }}
    steps:
      - id: g
        uses: acme/greet@v1
        with:
          who: mona
      - uses: acme/tools/js@v1
        with:
          who: top
  second:
    needs: first
    runs-on: [self-hosted]
    steps:
      - uses: acme/greet@v1
`;

function has(logs: readonly string[], text: string): boolean {
  return logs.some((line) => line.includes(text));
}

describe('remote actions on svc-runner', () => {
  it('downloads through the server (legacy, then run service), runs them, and reuses the download in the next job', async (t) => {
    const mirror = buildActionsMirror(t);
    const h = await runnerHost(t, { env: { SVC_ACTIONS_MIRROR_DIR: mirror.dir }, plugins: ['blobs'] });
    const run = await actionRun(h, WORKFLOW);
    const root = await runnerRoot(t);

    const first = await runActionJob(t, h, run, { kind: 'PipelineAgentJobRequest', root });
    assert.equal(first.code, 100, `${first.output}\n${first.logs.join('\n')}`);
    assert.deepEqual(jobOf(first.view, 'first').outputs, { said: 'js says hi to mona' });
    assert.ok(has(first.logs, `Download action repository 'acme/greet@v1' (SHA:${mirror.greetSha})`), first.logs.join('\n'));
    assert.ok(has(first.logs, `Download action repository 'acme/tools@v1' (SHA:${mirror.toolsSha})`));
    assert.ok(has(first.logs, 'greet composite for mona from greet'));
    const actions = join(root, '_work', '_actions');
    assert.ok(has(first.logs, `remote js ran from ${join(actions, 'acme', 'tools', 'v1', 'js')} pre-state=-`), 'nested in a composite: no pre stage');
    assert.ok(has(first.logs, `remote js ran from ${join(actions, 'acme', 'tools', 'v1', 'js')} pre-state=yes`), 'a job step: its pre stage ran first');
    const index = (text: string) => first.logs.findIndex((line) => line.includes(text));
    assert.ok(index('remote pre ran for top') >= 0 && index('remote pre ran for top') < index('greet composite for mona'), 'pre stages run before the main steps');
    assert.ok(has(first.logs, 'remote post ran for top pre-state=yes'));
    assert.ok(has(first.logs, 'remote post ran for mona pre-state=-'), "the nested action's post runs in the composite's post");
    const names = jobOf(first.view, 'first').steps.map((step) => step.name);
    assert.deepEqual(
      names.filter((name) => /^(Pre|Post) /.test(name)),
      // The pre stage registered its post first: posts run the last registered first.
      ['Pre Run acme/tools/js@v1', 'Post Run acme/greet@v1', 'Post Run acme/tools/js@v1'],
      names.join(', '),
    );
    assert.equal(readFileSync(join(actions, 'acme', 'greet', 'v1.completed'), 'utf8').trim(), mirror.greetSha);
    const marker = statSync(join(actions, 'acme', 'tools', 'v1.completed')).mtimeMs;

    const second = await runActionJob(t, h, run, { kind: 'RunnerJobRequest', root });
    assert.equal(second.code, 100, `${second.output}\n${second.logs.join('\n')}`);
    const secondLogs = second.logs.slice(first.logs.length);
    assert.ok(has(secondLogs, 'greet composite for world from greet'), secondLogs.join('\n'));
    assert.ok(!has(secondLogs, 'Download action repository'), 'the second job downloads nothing');
    assert.equal(statSync(join(actions, 'acme', 'tools', 'v1.completed')).mtimeMs, marker);
    assert.equal(jobOf(second.view, 'second').conclusion, 'success');
  });

  it('fails "Set up job" with the server\'s reason when an action cannot be resolved', async (t) => {
    const mirror = buildActionsMirror(t);
    const h = await runnerHost(t, { env: { SVC_ACTIONS_MIRROR_DIR: mirror.dir }, plugins: ['blobs'] });
    const workflow = 'name: ci\non: push\njobs:\n  gone:\n    runs-on: [self-hosted]\n    steps:\n      - uses: acme/greet@v1\n      - uses: acme/gone@v1\n';
    for (const kind of ['PipelineAgentJobRequest', 'RunnerJobRequest'] as const) {
      const job = await runActionJob(t, h, await actionRun(h, workflow), { kind });
      assert.equal(job.code, 102, `${job.output}\n${job.logs.join('\n')}`);
      assert.ok(has(job.logs, '##[error]') && has(job.logs, 'the mirror has no acme/gone.git'), `${kind}: ${job.logs.join('\n')}`);
      assert.ok(!has(job.logs, 'greet composite for'), 'no step runs');
      assert.equal(jobOf(job.view, 'gone').steps[0]?.conclusion, 'failure');
    }
  });
});
