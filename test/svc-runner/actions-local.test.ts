/**
 * Action steps end to end, with local actions (`uses: ./path`, read from the workspace when the
 * step runs): a JavaScript action's main and post stages with state and outputs, a composite
 * with inputs, outputs, `$GITHUB_ENV` and a nested composite, node runtime selection (the node on
 * PATH without externals, the spec's message when it does not match, `externals/` first), a
 * missing action, docker (the missing-engine failure; a real container when a daemon answers),
 * and a third-party handler. The job is dispatched by the real server and run by the worker
 * process; assertions read what the server recorded.
 */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdir, symlink } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { runnerHost } from '../runner-protocol/runner-host.js';
import { THIRD_PARTY_ENTRY, actionRun, runActionJob, runnerRoot } from './fixtures/actions-e2e.js';
import { pathWithoutEngines } from './fixtures/engine-path.js';
import { jobOf } from './fixtures/worker-harness.js';

const JS_ACTION = {
  '.github/actions/js/action.yml': 'name: js\ninputs:\n  who:\n    default: nobody\noutputs:\n  said: {}\nruns:\n  using: node20\n  main: main.js\n  post: post.js\n',
  '.github/actions/js/main.js': [
    "const fs = require('fs');",
    'fs.appendFileSync(process.env.GITHUB_OUTPUT, `said=hello ${process.env.INPUT_WHO}\\n`);',
    "fs.appendFileSync(process.env.GITHUB_STATE, 'token=abc\\n');",
    "console.log('::save-state name=phase::main-done');",
    "console.log(`js main: runtime token given=${(process.env.ACTIONS_RUNTIME_TOKEN ?? '') !== ''} node=${process.versions.node.split('.')[0]}`);",
  ].join('\n'),
  '.github/actions/js/post.js': 'console.log(`js post: token=${process.env.STATE_token} phase=${process.env.STATE_phase}`);',
};

const COMPOSITE_ACTION = {
  '.github/actions/comp/action.yml': `name: comp
inputs:
  who:
    required: true
outputs:
  greeting:
    value: \${{ steps.say.outputs.text }}
  deep:
    value: \${{ steps.inner.outputs.deep }}
runs:
  using: composite
  steps:
    - id: say
      run: |
        echo "text=hi \${{ inputs.who }}" >> "$GITHUB_OUTPUT"
        echo "FROM_COMP=set-in-composite" >> "$GITHUB_ENV"
      shell: bash
    - id: inner
      uses: ./.github/actions/inner
      with:
        level: \${{ steps.say.outputs.text }}
`,
  '.github/actions/inner/action.yml': `name: inner
inputs:
  level: {}
outputs:
  deep:
    value: deep(\${{ inputs.level }})
runs:
  using: composite
  steps:
    - run: echo "inner sees FROM_COMP=$FROM_COMP at $(basename "$GITHUB_ACTION_PATH")"
      shell: sh
`,
};

const PIPELINE = `name: ci
on: push
jobs:
  build:
    runs-on: [self-hosted]
    outputs:
      said: \${{ steps.js.outputs.said }}
      greeting: \${{ steps.comp.outputs.greeting }}
    steps:
      - id: js
        uses: ./.github/actions/js
        with:
          who: mona
      - id: comp
        uses: ./.github/actions/comp
        with:
          who: octo
      - run: echo "after \${{ steps.js.outputs.said }} | \${{ steps.comp.outputs.greeting }} | \${{ steps.comp.outputs.deep }} | FROM_COMP=$FROM_COMP"
`;

function has(logs: readonly string[], text: string): boolean {
  return logs.some((line) => line.includes(text));
}

function daemonReason(): Promise<string | undefined> {
  return new Promise((resolve) => {
    execFile('docker', ['info', '--format', '{{.ServerVersion}}'], { timeout: 20_000 }, (error, stdout, stderr) => {
      if (error === null && String(stdout).trim() !== '') resolve(undefined);
      else resolve(`no container engine daemon: \`docker info\` says ${String(stderr).trim().split('\n').pop() ?? error?.message ?? 'nothing'}`);
    });
  });
}

describe('local actions on svc-runner', () => {
  it('runs a JavaScript action (main, then post with its state) and a composite with a nested composite', async (t) => {
    const h = await runnerHost(t);
    const run = await actionRun(h, PIPELINE);
    const job = await runActionJob(t, h, run, { files: { ...JS_ACTION, ...COMPOSITE_ACTION } });
    const view = jobOf(job.view, 'build');
    assert.equal(job.code, 100, `${job.output}\n${job.logs.join('\n')}`);
    assert.equal(view.conclusion, 'success');
    assert.deepEqual(view.outputs, { said: 'hello mona', greeting: 'hi octo' });
    assert.ok(has(job.logs, 'js main: runtime token given=true node=20'), job.logs.join('\n'));
    assert.ok(has(job.logs, 'inner sees FROM_COMP=set-in-composite at inner'));
    assert.ok(has(job.logs, 'after hello mona | hi octo | deep(hi octo) | FROM_COMP=set-in-composite'));
    assert.ok(has(job.logs, 'js post: token=abc phase=main-done'), 'the post stage sees the state main saved');
    const names = view.steps.map((step) => step.name);
    const post = names.findIndex((name) => name.startsWith('Post ') && name.includes('js'));
    assert.ok(post > names.findIndex((name) => name.startsWith('Run echo')), `the post step runs after the main steps: ${names.join(', ')}`);
    assert.equal(view.steps[post]?.conclusion, 'success');
  });

  it("picks node: the runner's PATH node without externals (whatever $GITHUB_PATH adds), the spec message when it does not match, externals/ first", async (t) => {
    const h = await runnerHost(t);
    const files = {
      '.github/actions/n20/action.yml': 'name: n20\nruns:\n  using: node20\n  main: main.js\n',
      '.github/actions/n20/main.js': "console.log('node20 action on node ' + process.versions.node.split('.')[0]);",
      '.github/actions/n24/action.yml': 'name: n24\nruns:\n  using: node24\n  main: main.js\n',
      '.github/actions/n24/main.js': "console.log('node24 action ran');",
      'fakebin/node': '#!/bin/sh\n[ "$1" = "--version" ] && echo v18.19.0 && exit 0\necho "the old node ran"\n',
    };
    const workflow = `name: ci
on: push
jobs:
  nodes:
    runs-on: [self-hosted]
    steps:
      - uses: ./.github/actions/n20
      - uses: ./.github/actions/n24
        continue-on-error: true
      - run: echo "$GITHUB_WORKSPACE/fakebin" >> "$GITHUB_PATH"
      - uses: ./.github/actions/n20
`;
    const noExternals = await runActionJob(t, h, await actionRun(h, workflow), { files });
    assert.equal(noExternals.code, 100, noExternals.logs.join('\n'));
    assert.equal(noExternals.logs.filter((line) => line.includes('node20 action on node 20')).length, 2, "the runner's PATH node 20 runs node20 actions, also after $GITHUB_PATH puts node 18 first");
    assert.ok(has(noExternals.logs, '##[error]bundled node24 is missing: '), noExternals.logs.join('\n'));
    assert.ok(has(noExternals.logs, "the node on the runner's PATH"), noExternals.logs.join('\n'));
    assert.ok(!has(noExternals.logs, 'the old node ran'));

    const root = await runnerRoot(t);
    await mkdir(join(root, 'externals', 'node20', 'bin'), { recursive: true });
    await symlink(process.execPath, join(root, 'externals', 'node20', 'bin', 'node'));
    const withExternals = await runActionJob(t, h, await actionRun(h, workflow.replace('      - uses: ./.github/actions/n24\n        continue-on-error: true\n', '')), { files, root });
    assert.equal(withExternals.code, 100, withExternals.logs.join('\n'));
    assert.equal(withExternals.logs.filter((line) => line.includes('node20 action on node 20')).length, 2, 'externals/node20 wins over the node on PATH');
  });

  it('fails the step of a local action that is not there, naming the folder', async (t) => {
    const h = await runnerHost(t);
    const run = await actionRun(h, 'name: ci\non: push\njobs:\n  gone:\n    runs-on: [self-hosted]\n    steps:\n      - uses: ./.github/actions/gone\n      - run: echo never\n');
    const job = await runActionJob(t, h, run, { kind: 'PipelineAgentJobRequest' });
    assert.equal(job.code, 102);
    assert.ok(has(job.logs, "##[error]Can't find 'action.yml', 'action.yaml' or 'Dockerfile' under '"), job.logs.join('\n'));
    assert.ok(has(job.logs, "/_work/widgets/widgets/.github/actions/gone'. Did you forget to run actions/checkout before running your local action?"));
    assert.ok(!has(job.logs, 'never'));
  });

  it('fails a docker action naming the missing container engine', async (t) => {
    const h = await runnerHost(t);
    const run = await actionRun(h, 'name: ci\non: push\njobs:\n  dock:\n    runs-on: [self-hosted]\n    steps:\n      - uses: ./dock\n');
    const job = await runActionJob(t, h, run, { files: { 'dock/action.yml': 'name: d\nruns:\n  using: docker\n  image: Dockerfile\n', 'dock/Dockerfile': 'FROM alpine:3\n' }, env: { PATH: pathWithoutEngines() } });
    assert.equal(job.code, 102);
    assert.ok(has(job.logs, "##[error]The docker action './dock' needs a container engine, but neither 'docker' nor 'podman' was found on PATH."), job.logs.join('\n'));
  });

  it('runs a docker action in a container when a daemon answers', async (t) => {
    const reason = await daemonReason();
    if (reason !== undefined) {
      console.log(`skipped: ${reason}`);
      t.skip(reason);
      return;
    }
    const h = await runnerHost(t);
    const run = await actionRun(h, 'name: ci\non: push\njobs:\n  dock:\n    runs-on: [self-hosted]\n    steps:\n      - id: d\n        uses: ./dock\n        with:\n          who: mona\n      - run: echo "got ${{ steps.d.outputs.out }}"\n');
    const job = await runActionJob(t, h, run, {
      files: {
        'dock/action.yml': 'name: d\ninputs:\n  who: {}\nruns:\n  using: docker\n  image: Dockerfile\n  args: ["${{ inputs.who }}"]\n',
        'dock/Dockerfile': 'FROM alpine:3\nENTRYPOINT ["sh", "-c", "echo in-container $1 $GITHUB_WORKSPACE; echo out=$1 >> $GITHUB_OUTPUT", "sh"]\n',
      },
    });
    assert.equal(job.code, 100, job.logs.join('\n'));
    assert.ok(has(job.logs, 'in-container mona /github/workspace'));
    assert.ok(has(job.logs, 'got mona'));
  });

  it('runs an action whose runs.using a third-party handler registered', async (t) => {
    const h = await runnerHost(t);
    const run = await actionRun(h, 'name: ci\non: push\njobs:\n  third:\n    runs-on: [self-hosted]\n    steps:\n      - id: b\n        uses: ./hello\n        with:\n          who: mona\n      - run: echo "said ${{ steps.b.outputs.said }}"\n');
    const files = {
      'hello/action.yml': 'name: hello\ninputs:\n  who: {}\nruns:\n  using: bash\n  script: main.sh\n',
      'hello/main.sh': 'echo "bash action greets $INPUT_WHO"\necho "said=yes" >> "$GITHUB_OUTPUT"\n',
    };
    const job = await runActionJob(t, h, run, { files, entry: THIRD_PARTY_ENTRY });
    assert.equal(job.code, 100, `${job.output}\n${job.logs.join('\n')}`);
    assert.ok(has(job.logs, 'bash action greets mona'));
    assert.ok(has(job.logs, 'said yes'));

    const plain = await runActionJob(t, h, await actionRun(h, 'name: ci\non: push\njobs:\n  third:\n    runs-on: [self-hosted]\n    steps:\n      - uses: ./hello\n'), { files });
    assert.equal(plain.code, 102);
    assert.ok(has(plain.logs, "##[error]not_implemented: bash actions (no handler for runs.using 'bash' in svc-runner yet)"), plain.logs.join('\n'));
  });
});
