import assert from 'node:assert/strict';
import { mkdir, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { fakeJob, type FakeJob } from '../../test/svc-runner/fixtures/actions-fake-context.js';
import { LOCAL_ACTION_USING, loadActionDirectory, resolvedFrom } from '../actions/index.js';
import type { ActionResolver, HandlerContext, HandlerResult } from './handler-types.js';
import {
  HandlerRegistry,
  RUN_USING,
  createCompositeHandler,
  createDefaultRegistry,
  createLocalActionHandler,
  createNodeHandler,
  createScriptHandler,
} from './index.js';

const OUTER = `name: outer
inputs:
  who:
    default: world
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
        echo "text=hello \${{ inputs.who }}" >> "$GITHUB_OUTPUT"
        echo "FROM_STEP=one" >> "$GITHUB_ENV"
        echo "path=$GITHUB_ACTION_PATH action=$GITHUB_ACTION"
      shell: bash
    - run: echo "env sees $FROM_STEP and $STEP_ENV in $(basename "$PWD")"
      shell: bash
      working-directory: sub
      env:
        STEP_ENV: \${{ steps.say.outputs.text }}
    - id: boom
      run: exit 3
      shell: bash
      if: inputs.who == 'fail'
    - run: echo "after a failure, success() is false"
      shell: bash
    - run: echo "failure() sees the action's status"
      shell: bash
      if: failure()
    - id: inner
      uses: ./inner
      with:
        level: \${{ inputs.who }}
`;

const INNER = `name: inner
inputs:
  level:
    required: true
outputs:
  deep:
    value: deep-\${{ inputs.level }}
runs:
  using: composite
  steps:
    - run: echo "inner sees FROM_STEP=$FROM_STEP"
      shell: sh
`;

async function write(job: FakeJob, path: string, content: string): Promise<void> {
  const file = join(job.workspace, path);
  await mkdir(join(file, '..'), { recursive: true });
  await writeFile(file, content);
}

function runLocal(job: FakeJob, path: string, extra: Partial<HandlerContext> = {}): Promise<HandlerResult> {
  const registry = createDefaultRegistry({ baseEnvironment: { PATH: process.env['PATH'] ?? '' }, runnerRoot: job.root });
  const context = job.context({
    action: { using: LOCAL_ACTION_USING, manifest: { kind: 'local', path, origin: { display: path } } },
    step: { id: 'step-1', contextName: 'comp', name: 'comp', displayName: `Run ${path}`, reference: { kind: 'repository', name: '', ref: '', path, repositoryType: 'self' } },
    ...extra,
  });
  return registry.handlerFor(context.action.using).run(context);
}

/** `uses: acme/greet@v1` (a composite) and what it uses: a local composite, a remote composite and a remote JavaScript action. */
const ORIGIN_ACTIONS: Readonly<Record<string, string>> = {
  'remote/acme/greet/action.yml': `name: greet
runs:
  using: composite
  steps:
    - env:
        FROM_ENV: \${{ github.action_repository }}@\${{ github.action_ref }}
      run: echo "greet env=$FROM_ENV var=[$GITHUB_ACTION_REPOSITORY@$GITHUB_ACTION_REF] run=[\${{ github.action_repository }}]"
      shell: bash
    - uses: ./local
    - uses: acme/tools/echo@v2
      with:
        who: \${{ github.action_repository }}@\${{ github.action_ref }}
      env:
        CALLER: \${{ github.action_repository }}
    - uses: acme/tools/js@v3
`,
  'local/action.yml': `name: local
runs:
  using: composite
  steps:
    - env:
        FROM_ENV: \${{ github.action_repository }}@\${{ github.action_ref }}
      run: echo "local env=$FROM_ENV"
      shell: bash
`,
  'remote/acme/tools/echo/action.yml': `name: echo
inputs:
  who:
    required: true
runs:
  using: composite
  steps:
    - env:
        FROM_ENV: \${{ github.action_repository }}@\${{ github.action_ref }}
      run: echo "echo env=$FROM_ENV who=\${{ inputs.who }} caller=$CALLER"
      shell: bash
`,
  'remote/acme/tools/js/action.yml': 'name: js\nruns:\n  using: node20\n  main: main.js\n',
  'remote/acme/tools/js/main.js': "console.log('js var=' + process.env.GITHUB_ACTION_REPOSITORY + '@' + process.env.GITHUB_ACTION_REF);",
};

/** Remote references from `<workspace>/remote/<owner>/<repo>/<path>` (what "Set up job" would have downloaded); local ones as the built-in resolver answers them. */
function folderResolver(job: FakeJob): ActionResolver {
  return {
    async resolve(reference) {
      if (reference.kind !== 'repository') throw new Error('no containers here');
      if (reference.name === '') return resolvedFrom({ kind: 'local', path: reference.path, origin: { display: reference.path } });
      const directory = join(job.workspace, 'remote', ...reference.name.split('/'), ...reference.path.split('/').filter((part) => part !== ''));
      return resolvedFrom(
        await loadActionDirectory(directory, { displayPath: reference.name, origin: { repository: reference.name, ref: reference.ref, display: reference.name }, missingMessage: 'missing' }),
      );
    },
  };
}

describe('the composite action handler', () => {
  it("gives nested steps' env: the composite's github.action_repository/action_ref, and each nested step its own when it runs", async (t) => {
    const job = await fakeJob(t);
    for (const [path, content] of Object.entries(ORIGIN_ACTIONS)) await write(job, path, content);
    await mkdir(join(job.root, 'externals', 'node20', 'bin'), { recursive: true });
    await symlink(process.execPath, join(job.root, 'externals', 'node20', 'bin', 'node'));
    const baseEnvironment = { PATH: process.env['PATH'] ?? '' };
    const resolver = folderResolver(job);
    const registry = new HandlerRegistry()
      .register(RUN_USING, createScriptHandler({ baseEnvironment }))
      .register('node20', createNodeHandler({ baseEnvironment, externalsDir: join(job.root, 'externals') }));
    registry.register('composite', createCompositeHandler({ handlers: registry, resolver })).register(LOCAL_ACTION_USING, createLocalActionHandler(registry));
    const reference = { kind: 'repository', name: 'acme/greet', ref: 'v1', path: '', repositoryType: 'GitHub' } as const;
    // What the worker gives a job step `uses: acme/greet@v1` (ActionRunner's values in github and in the step's variables).
    const base = job.context();
    const context = job.context({
      action: await resolver.resolve(reference, { directories: base.directories, log: base.log, signal: base.signal }),
      step: { id: 'step-1', contextName: 'greet', name: 'greet', displayName: 'Run acme/greet@v1', reference },
      contexts: { ...base.contexts, github: { ...(base.contexts['github'] as object), action_repository: 'acme/greet', action_ref: 'v1' } },
      runtimeEnvironment: { ...base.runtimeEnvironment, GITHUB_ACTION_REPOSITORY: 'acme/greet', GITHUB_ACTION_REF: 'v1' },
    });
    const result = await registry.handlerFor('composite').run(context);
    assert.equal(result.outcome, 'succeeded', job.log.errors.join('\n'));
    const lines = job.log.lines;
    for (const expected of [
      // As on the runner: env: sees the composite's; a run: step's own script and variables are empty.
      'greet env=acme/greet@v1 var=[@] run=[]',
      'local env=@',
      'echo env=acme/tools@v2 who=acme/tools@v2 caller=acme/greet',
      'js var=acme/tools@v3',
    ]) {
      assert.ok(lines.includes(expected), `the log has '${expected}':\n${lines.join('\n')}`);
    }
  });

  it('runs the steps with inputs, env, working-directory, outputs and a nested composite; forwards $GITHUB_ENV to the job', async (t) => {
    const job = await fakeJob(t);
    await write(job, 'outer/action.yml', OUTER);
    await write(job, 'inner/action.yml', INNER);
    await mkdir(join(job.workspace, 'sub'));
    const result = await runLocal(job, './outer', { inputs: { who: 'mona' } });
    assert.deepEqual(job.log.errors, []);
    assert.deepEqual(result, { outcome: 'succeeded', outputs: { greeting: 'hello mona', deep: 'deep-mona' } });
    const lines = job.log.lines;
    assert.ok(lines.includes(`path=${join(job.workspace, 'outer')} action=say`), lines.join('\n'));
    assert.ok(lines.includes('env sees one and hello mona in sub'), lines.join('\n'));
    assert.ok(lines.includes('after a failure, success() is false'), 'no failure: the step runs');
    assert.ok(!lines.includes("failure() sees the action's status"));
    assert.ok(lines.includes('inner sees FROM_STEP=one'), lines.join('\n'));
    assert.match(await job.read('GITHUB_ENV'), /^FROM_STEP<<ghadelimiter_[0-9a-f-]+\none\nghadelimiter_[0-9a-f-]+\n$/);
    assert.equal(await job.read('GITHUB_OUTPUT'), '', "nested outputs stay in the composite's steps context");
  });

  it("stops on a failed step: success() steps are skipped, failure() steps run, the action fails", async (t) => {
    const job = await fakeJob(t);
    await write(job, 'outer/action.yml', OUTER);
    await write(job, 'inner/action.yml', INNER);
    await mkdir(join(job.workspace, 'sub'));
    const result = await runLocal(job, './outer', { inputs: { who: 'fail' } });
    assert.equal(result.outcome, 'failed');
    assert.equal(result.outputs?.['greeting'], 'hello fail');
    assert.equal(result.outputs?.['deep'], '', 'the nested composite was skipped');
    assert.ok(!job.log.lines.includes('after a failure, success() is false'));
    assert.ok(job.log.lines.includes("failure() sees the action's status"), job.log.lines.join('\n'));
    assert.ok(job.log.errors.includes('Process completed with exit code 3.'));
  });

  it('honours continue-on-error and if: on nested steps, and fails on a condition it cannot evaluate', async (t) => {
    const job = await fakeJob(t);
    await write(
      job,
      'coe/action.yml',
      `name: coe\noutputs:\n  o:\n    value: \${{ steps.x.outcome }}/\${{ steps.x.conclusion }}\nruns:\n  using: composite\n  steps:\n    - id: x\n      run: exit 1\n      shell: bash\n      continue-on-error: true\n    - run: echo still running\n      shell: bash\n    - run: echo never\n      shell: bash\n      if: fromJSON('{')\n    - run: echo not after a condition error\n      shell: bash\n      if: always()\n`,
    );
    const result = await runLocal(job, './coe');
    assert.deepEqual(result.outputs, { o: 'failure/success' });
    assert.equal(result.outcome, 'failed');
    assert.ok(job.log.lines.includes('still running'));
    assert.ok(!job.log.lines.includes('never') && !job.log.lines.includes('not after a condition error'));
    assert.ok(job.log.errors.some((error) => /fromJson/i.test(error)), job.log.errors.join('\n'));
  });

  it('refuses to nest deeper than 9 levels', async (t) => {
    const job = await fakeJob(t);
    await write(job, 'rec/action.yml', 'name: rec\nruns:\n  using: composite\n  steps:\n    - run: echo level\n      shell: bash\n    - uses: ./rec\n');
    const result = await runLocal(job, './rec');
    assert.equal(result.outcome, 'failed');
    assert.equal(job.log.lines.filter((line) => line === 'level').length, 9, 'levels 1 to 9 ran');
    assert.deepEqual(job.log.errors, ['Composite action depth exceeded max depth 9']);
  });

  it("runs a nested action's post stage (with its saved state) in the composite's post", async (t) => {
    const job = await fakeJob(t);
    await mkdir(join(job.root, 'externals', 'node20', 'bin'), { recursive: true });
    await symlink(process.execPath, join(job.root, 'externals', 'node20', 'bin', 'node'));
    await write(job, 'js/action.yml', 'name: js\nruns:\n  using: node20\n  main: main.js\n  post: post.js\n');
    await write(job, 'js/main.js', "require('fs').appendFileSync(process.env.GITHUB_STATE, 'token=kept\\n'); console.log('::save-state name=other::also');");
    await write(job, 'js/post.js', "console.log('post sees ' + process.env.STATE_token + ' ' + process.env.STATE_other);");
    await write(job, 'wrap/action.yml', 'name: wrap\nruns:\n  using: composite\n  steps:\n    - uses: ./js\n');
    const main = await runLocal(job, './wrap');
    assert.equal(main.outcome, 'succeeded', job.log.errors.join('\n'));
    assert.equal(job.posts.length, 1);
    const post = job.posts[0];
    assert.ok(post);
    assert.deepEqual([post.displayName, post.condition, post.action.using], ['Post Run ./wrap', 'always()', 'composite']);
    job.log.lines.length = 0;
    const registry = createDefaultRegistry({ runnerRoot: job.root });
    const result = await registry.handlerFor('composite').run(job.context({ stage: 'post', action: post.action }));
    assert.equal(result.outcome, 'succeeded', job.log.errors.join('\n'));
    assert.ok(job.log.lines.includes('post sees kept also'), JSON.stringify([job.log.lines, job.log.errors, job.log.debug]));
  });

  it('names the manifest file when a run step has no shell, and the folder when there is no manifest', async (t) => {
    const job = await fakeJob(t);
    await write(job, 'bad/action.yml', 'name: bad\nruns:\n  using: composite\n  steps:\n    - run: echo hi\n');
    assert.equal((await runLocal(job, './bad')).outcome, 'failed');
    assert.equal(job.log.errors.at(-1), 'Failed to load bad/action.yml');
    assert.ok(job.log.errors.slice(0, -1).every((error) => error.startsWith('bad/action.yml')), job.log.errors.join('\n'));
    job.log.errors.length = 0;
    assert.equal((await runLocal(job, './nothing')).outcome, 'failed');
    assert.deepEqual(job.log.errors, [
      `Can't find 'action.yml', 'action.yaml' or 'Dockerfile' under '${join(job.workspace, 'nothing')}'. Did you forget to run actions/checkout before running your local action?`,
    ]);
  });
});
