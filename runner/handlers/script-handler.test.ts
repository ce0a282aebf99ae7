import assert from 'node:assert/strict';
import { mkdir, mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it, type TestContext } from 'node:test';
import type { HandlerContext, StepLog } from './handler-types.js';
import { HandlerRegistry, NotImplementedError, RUN_USING } from './handler-registry.js';
import { processEnvironment } from './process-environment.js';
import { createScriptHandler, firstLine } from './script-handler.js';

interface Captured {
  readonly written: string[];
  readonly processed: Array<[string, string | undefined]>;
  readonly errors: string[];
}

async function context(t: TestContext, inputs: Record<string, string>, extra: Partial<HandlerContext> = {}): Promise<{ context: HandlerContext; log: Captured; root: string }> {
  const root = await mkdtemp(join(tmpdir(), 'svc-script-'));
  t.after(() => rm(root, { recursive: true, force: true }));
  const workspace = join(root, 'ws');
  await mkdir(join(workspace, 'sub'), { recursive: true });
  await mkdir(join(root, 'temp'));
  const captured: Captured = { written: [], processed: [], errors: [] };
  const log: StepLog = {
    processLine: (line, stream) => captured.processed.push([line, stream]),
    write: (line) => captured.written.push(line),
    debug: () => undefined,
    error: (message) => captured.errors.push(message),
    warning: () => undefined,
    notice: () => undefined,
  };
  return {
    root,
    log: captured,
    context: {
      step: { id: 's', contextName: '__run', name: '__run', displayName: 'Run', reference: { kind: 'script' } },
      stage: 'main',
      action: { using: RUN_USING },
      inputs,
      environment: { GREETING: 'hello', GITHUB_SHA: 'user-value' },
      runtimeEnvironment: { GITHUB_SHA: 'abc123', RUNNER_TEMP: join(root, 'temp') },
      actionsRuntime: { ACTIONS_RUNTIME_TOKEN: 'never-for-run' },
      prependPath: [],
      defaults: {},
      contexts: {},
      state: {},
      directories: { workspace, temp: join(root, 'temp'), actions: join(root, 'actions'), tools: join(root, 'tool') },
      platform: process.platform,
      log,
      signal: new AbortController().signal,
      addMask: () => undefined,
      registerPostStep: () => undefined,
      ...extra,
    },
  };
}

describe('the run handler', () => {
  it('prints the header, runs the script in the workspace with the layered env, and removes nothing it should keep', async (t) => {
    const { context: ctx, log, root } = await context(t, { script: '\n  echo "$GREETING $GITHUB_SHA ${ACTIONS_RUNTIME_TOKEN:-none} $CI $GITHUB_ACTIONS"\npwd\n' });
    const result = await createScriptHandler({ baseEnvironment: { PATH: process.env['PATH'] ?? '' } }).run(ctx);
    assert.deepEqual(result, { outcome: 'succeeded' });
    assert.deepEqual(log.written.slice(0, 3), ['##[group]Run echo "$GREETING $GITHUB_SHA ${ACTIONS_RUNTIME_TOKEN:-none} $CI $GITHUB_ACTIONS"', '\u001b[36;1m\u001b[0m', '\u001b[36;1m  echo "$GREETING $GITHUB_SHA ${ACTIONS_RUNTIME_TOKEN:-none} $CI $GITHUB_ACTIONS"\u001b[0m']);
    assert.match(log.written[4] ?? '', /^shell: \/.*bash -e \{0\}$/);
    assert.deepEqual(log.written.slice(5), ['env:', '  GREETING: hello', '  GITHUB_SHA: user-value', '##[endgroup]']);
    assert.deepEqual(log.processed, [
      ['hello abc123 none true true', 'stdout'],
      [join(root, 'ws'), 'stdout'],
    ]);
    assert.equal((await readdir(join(root, 'temp'))).filter((f) => f.endsWith('.sh')).length, 1, 'the script file is in runner.temp');
  });

  it('honours working-directory (relative to the workspace) and defaults.run, and reports a failing exit code', async (t) => {
    const { context: ctx, log } = await context(t, { script: 'pwd; echo "shell=$0"; exit 7', workingDirectory: 'sub' }, { defaults: { shell: 'sh', workingDirectory: 'ignored' } });
    const result = await createScriptHandler().run(ctx);
    assert.deepEqual(result, { outcome: 'failed' });
    assert.ok(log.processed[0]?.[0].endsWith('/ws/sub'), JSON.stringify(log.processed));
    assert.match(log.written.find((l) => l.startsWith('shell: ')) ?? '', /sh -e \{0\}$/);
    assert.deepEqual(log.errors, ['Process completed with exit code 7.']);
  });

  it('a missing shell and a missing working directory are step failures that say why', async (t) => {
    const missingShell = await context(t, { script: 'true', shell: 'no-such-shell-xyz {0}' });
    assert.deepEqual(await createScriptHandler().run(missingShell.context), { outcome: 'failed' });
    assert.match(missingShell.log.errors.join('\n'), /no-such-shell-xyz/);
    const missingDir = await context(t, { script: 'true', workingDirectory: 'nope' });
    assert.deepEqual(await createScriptHandler().run(missingDir.context), { outcome: 'failed' });
    assert.match(missingDir.log.errors.join('\n'), /working directory '.*\/ws\/nope'/);
  });

  it('answers canceled when stopped', async (t) => {
    const abort = new AbortController();
    const { context: ctx } = await context(t, { script: 'sleep 30' }, { signal: abort.signal });
    setTimeout(() => abort.abort(), 300);
    assert.deepEqual(await createScriptHandler().run(ctx), { outcome: 'canceled' });
  });

  it('the first line skips leading blank lines', () => {
    assert.equal(firstLine('\n\n  npm test\nnpm run lint'), 'npm test');
  });
});

describe('the process environment', () => {
  it('layers the worker env, the env context, PATH prepends, extras, contexts (which win), state, GITHUB_ACTIONS and CI', () => {
    const env = processEnvironment(
      { environment: { A: 'env', GITHUB_REF: 'user', CI: 'false' }, prependPath: ['/new', '/older'], runtimeEnvironment: { GITHUB_REF: 'refs/heads/main' }, state: { pid: '1' } },
      { INPUT_X: 'y' },
      { PATH: '/usr/bin', A: 'base', HOME: '/home/r' },
    );
    assert.deepEqual(env, { PATH: '/new:/older:/usr/bin', A: 'env', HOME: '/home/r', GITHUB_REF: 'refs/heads/main', CI: 'false', INPUT_X: 'y', STATE_pid: '1', GITHUB_ACTIONS: 'true' });
    assert.equal(processEnvironment({ environment: {}, prependPath: [], runtimeEnvironment: {}, state: {} }, {}, {})['CI'], 'true');
  });
});

describe('the handler registry', () => {
  it('names what cannot run yet: not_implemented: <kind> actions', async () => {
    const registry = new HandlerRegistry().register(RUN_USING, createScriptHandler());
    const ctx = { directories: { workspace: '', temp: '', actions: '', tools: '' }, signal: new AbortController().signal, log: {} as StepLog };
    assert.deepEqual(await registry.resolve({ kind: 'script' }, ctx), { using: 'run' });
    await assert.rejects(registry.resolve({ kind: 'repository', name: 'actions/checkout', ref: 'v4', path: '', repositoryType: 'GitHub' }, ctx), /^NotImplementedError: not_implemented: remote actions \(uses: actions\/checkout@v4/);
    await assert.rejects(registry.resolve({ kind: 'repository', name: '', ref: '', path: './local', repositoryType: 'self' }, ctx), /not_implemented: local actions \(uses: \.\/local/);
    await assert.rejects(registry.resolve({ kind: 'container', image: 'alpine:3.20' }, ctx), /not_implemented: docker actions \(uses: docker:\/\/alpine:3\.20/);
    assert.throws(() => registry.handlerFor('node20'), (error: unknown) => error instanceof NotImplementedError && error.message.startsWith('not_implemented: node20 actions'));
    assert.throws(() => registry.register('RUN', createScriptHandler()), /registered already/);
    registry.setResolver({ resolve: async () => ({ using: 'node20', directory: '/a' }) });
    assert.deepEqual(await registry.resolve({ kind: 'container', image: 'x' }, ctx), { using: 'node20', directory: '/a' });
  });
});
