/**
 * Secrets never in plain text (issue 17, item 8), as a user meets them: `svc serve` with the
 * secrets plugin and the built-in pool (process backend), `svc secret set` (one value multi-line)
 * and `svc var set`, then `svc run` of a workflow that echoes each secret and its `toJSON` form,
 * proves it got each value with `test`, reads `vars`, and calls a local reusable workflow by
 * mapping and by `secrets: inherit`. `svc run`'s live output and `svc logs` show `***`; then every
 * text column of every table of the SQLite store, every file of the data directory (blobs, the
 * store's files, the pool's), the server's log, the run view and `events.ndjson` are searched for
 * each value and its base64: zero hits.
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readdir, readFile } from 'node:fs/promises';
import { createHash } from 'node:crypto';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import Database from 'better-sqlite3';
import { gitRepository, spawnTs, startServerWithPool, svcRun, useBundle, type PoolServer, type Spawned } from '../local-runs/run-cli-harness.js';
import { isolateGitConfig } from '../snapshots/support.js';
import { TEST_SYSTEM_TOKEN } from '../support/host-env.js';

isolateGitConfig();
after(useBundle('e2e-secrets'));

const TOKEN = 's3cr3t-e2e-token-7f1c';
const MULTI = 'first-line-9a2e\nsecond-line-4b7d';
const GREETING = 'hello-from-vars';
/** The workflows check values against their hashes: the values themselves must not be in any file of the run. */
const sha256 = (value: string) => createHash('sha256').update(value).digest('hex');
const check = (expression: string, value: string) => `test "$(printf %s "${expression}" | sha256sum | cut -d' ' -f1)" = "${sha256(value)}"`;

// Steps read secrets through env: a value expanded into a \`run:\` script would rest in the script
// file in the guest's root until the guest is removed (as on GitHub's runners).
const WORKFLOW = `name: Secrets
on: push
jobs:
  direct:
    runs-on: ubuntu-latest
    env:
      MULTI: \${{ secrets.MULTI_LINE }}
    steps:
      - env:
          TOKEN: \${{ secrets.SVC_E2E_TOKEN }}
          JSON: \${{ toJSON(secrets.MULTI_LINE) }}
          GH_TOKEN: \${{ secrets.GITHUB_TOKEN }}
        run: |
          echo "token is $TOKEN"
          echo "multi is $MULTI"
          echo "json is $JSON"
          ${check('$TOKEN', TOKEN)} && echo "token checked"
          ${check('$MULTI', MULTI)} && echo "multi checked"
          test -n "$GH_TOKEN" && echo "github token present"
          echo "greeting is \${{ vars.GREETING }}"
  mapped:
    uses: ./.github/workflows/called.yml
    secrets:
      token: \${{ secrets.SVC_E2E_TOKEN }}
  inherited:
    uses: ./.github/workflows/inheriting.yml
    secrets: inherit
`;

const CALLED = `on:
  workflow_call:
    secrets:
      token: { required: true }
jobs:
  use:
    runs-on: ubuntu-latest
    steps:
      - env:
          TOKEN: \${{ secrets.token }}
          UNMAPPED: \${{ secrets.MULTI_LINE }}
        run: |
          echo "mapped token is $TOKEN"
          ${check('$TOKEN', TOKEN)} && echo "mapped token checked"
          test -z "$UNMAPPED" && echo "unmapped secret absent"
`;

const INHERITING = `on:
  workflow_call:
    secrets:
      SVC_E2E_TOKEN: { required: true }
jobs:
  use:
    runs-on: ubuntu-latest
    steps:
      - env:
          TOKEN: \${{ secrets.SVC_E2E_TOKEN }}
        run: |
          echo "inherited token is $TOKEN"
          ${check('$TOKEN', TOKEN)} && echo "inherited token checked"
          echo "inherited greeting is \${{ vars.GREETING }}"
`;

const REPO_KEY = 'repo-level-key-51c0';
const ENV_KEY = 'environment-key-8d3f';
const RUN_TOKEN = 'run-supplied-token-2e9a';

const DEPLOY_WORKFLOW = `name: Deploy
on: push
jobs:
  plain:
    runs-on: ubuntu-latest
    steps:
      - env:
          KEY: \${{ secrets.DEPLOY_KEY }}
          RUN_TOKEN: \${{ secrets.RUN_TOKEN }}
        run: |
          ${check('$KEY', REPO_KEY)} && echo "key checked: repository"
          echo "run token is $RUN_TOKEN"
          ${check('$RUN_TOKEN', RUN_TOKEN)} && echo "run token checked"
          echo "level is \${{ vars.LEVEL }}"
          echo "region is \${{ vars.REGION }}"
  deploy:
    runs-on: ubuntu-latest
    environment: production
    steps:
      - env:
          KEY: \${{ secrets.DEPLOY_KEY }}
          RUN_TOKEN: \${{ secrets.RUN_TOKEN }}
        run: |
          ${check('$KEY', ENV_KEY)} && echo "key checked: environment"
          echo "key is $KEY"
          echo "region is \${{ vars.REGION }}"
          ${check('$RUN_TOKEN', RUN_TOKEN)} && echo "run token checked"
`;

/** Each value, its lines, and their base64: none may appear anywhere. */
const forbidden = (values: readonly string[]) => values.flatMap((value) => [value, ...value.split('\n')]).flatMap((value) => [value, Buffer.from(value).toString('base64')]);
const FORBIDDEN = forbidden([TOKEN, MULTI]);

function hits(text: string, among: readonly string[] = FORBIDDEN): string[] {
  return among.filter((value) => text.includes(value));
}

/** Every text column of every table of the SQLite store, every file of the data directory and the server's log: no hit. */
async function assertNowhere(server: PoolServer, among: readonly string[]): Promise<void> {
  const db = new Database(join(server.dataDir, 'svc.db'), { readonly: true, fileMustExist: true });
  try {
    const tables = db.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").all() as { name: string }[];
    assert.ok(tables.some((table) => table.name === 'secret_values') && tables.some((table) => table.name === 'engine_runs'));
    for (const { name } of tables) {
      for (const row of db.prepare(`SELECT * FROM "${name}"`).all() as Record<string, unknown>[]) {
        for (const [column, value] of Object.entries(row)) {
          const text = Buffer.isBuffer(value) ? value.toString('latin1') : String(value);
          assert.deepEqual(hits(text, among), [], `${name}.${column}`);
        }
      }
    }
  } finally {
    db.close();
  }
  // The store's files and WAL, blobs, log chunks, the pool's guests.
  const files = await filesUnder(server.dataDir);
  assert.ok(files.some((file) => file.endsWith('svc.db')) && files.some((file) => file.includes('blobs')), files.join('\n'));
  for (const file of files) {
    const content = await readFile(file).catch(() => Buffer.alloc(0));
    assert.deepEqual(hits(content.toString('latin1'), among), [], file);
  }
  assert.deepEqual(hits(`${server.serve().stdout()}${server.serve().stderr()}`, among), [], "the server's log");
}

async function filesUnder(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true }).catch(() => []);
  return entries.filter((entry) => entry.isFile()).map((entry) => join(entry.parentPath, entry.name));
}

async function svc(server: PoolServer, args: readonly string[], cwd: string): Promise<Spawned> {
  const command = spawnTs('cli/svc.ts', args, server.cliEnv, cwd);
  assert.equal(await command.exited, 0, `svc ${args[0] ?? ''} ${args[1] ?? ''}: ${command.stderr()}`);
  return command;
}

function gitIn(dir: string, args: readonly string[]): void {
  execFileSync('git', args, { cwd: dir, stdio: 'ignore' });
}

async function get(server: PoolServer, path: string): Promise<string> {
  const response = await fetch(`${server.base}${path}`, { headers: { authorization: `Bearer ${TEST_SYSTEM_TOKEN}` } });
  assert.equal(response.status, 200, path);
  return response.text();
}

describe('secrets through svc run on the built-in pool (process backend)', () => {
  let server: PoolServer;
  before(async () => {
    server = await startServerWithPool('process', { warm: 1, max: 3, plugins: ['secrets'] });
  });
  after(async () => server?.stop());

  it('every job gets what it reads, the output shows *** only, and no store, file or log holds a value', async (t) => {
    const repo = await gitRepository({
      '.github/workflows/secrets.yml': WORKFLOW,
      '.github/workflows/called.yml': CALLED,
      '.github/workflows/inheriting.yml': INHERITING,
    });
    t.after(repo.remove);
    await svc(server, ['secret', 'set', 'SVC_E2E_TOKEN', '--value', TOKEN], repo.dir);
    await svc(server, ['secret', 'set', 'MULTI_LINE', '--value', MULTI], repo.dir);
    await svc(server, ['var', 'set', 'GREETING', '--value', GREETING], repo.dir);
    const listed = await svc(server, ['secret', 'list'], repo.dir);
    assert.match(listed.stdout(), /SVC_E2E_TOKEN/);
    assert.deepEqual(hits(listed.stdout()), []);

    const run = svcRun(['-f', '.github/workflows/secrets.yml'], server.cliEnv, repo.dir);
    const code = await run.exited;
    const live = `${run.stdout()}${run.stderr()}`;
    assert.equal(code, 0, live);
    // The jobs proved they got each value; the output shows it masked.
    assert.match(live, /^direct \| token is \*\*\*$/m);
    assert.match(live, /^direct \| multi is \*\*\*$/m);
    assert.match(live, /^direct \| token checked$/m);
    assert.match(live, /^direct \| multi checked$/m);
    assert.match(live, /^direct \| github token present$/m);
    // The JSON string form (one line, its line break as \n) is masked as a whole.
    assert.match(live, /^direct \| json is "\*\*\*"$/m);
    assert.match(live, new RegExp(`^direct \\| greeting is ${GREETING}$`, 'm'));
    assert.match(live, /^mapped \/ use \| mapped token is \*\*\*$/m);
    assert.match(live, /^mapped \/ use \| mapped token checked$/m);
    assert.match(live, /^mapped \/ use \| unmapped secret absent$/m);
    assert.match(live, /^inherited \/ use \| inherited token is \*\*\*$/m);
    assert.match(live, /^inherited \/ use \| inherited token checked$/m);
    assert.match(live, new RegExp(`^inherited / use \\| inherited greeting is ${GREETING}$`, 'm'));
    assert.deepEqual(hits(live), []);

    const runId = /^svc run: run (\d+) of /m.exec(run.stderr())?.[1];
    assert.ok(runId !== undefined, run.stderr());
    const logs = await svc(server, ['logs', runId], repo.dir);
    assert.match(logs.stdout(), /token is \*\*\*/);
    assert.deepEqual(hits(`${logs.stdout()}${logs.stderr()}`), []);
    assert.deepEqual(hits(await get(server, `/api/v1/runs/${runId}`)), []);
    assert.deepEqual(hits(await get(server, `/api/v1/runs/${runId}/events.ndjson`)), []);

    await assertNowhere(server, FORBIDDEN);
  });

  it('run-supplied values win and end with the run; an environment job reads its environment\'s secrets and vars', async (t) => {
    const repo = await gitRepository({ '.github/workflows/deploy.yml': DEPLOY_WORKFLOW });
    t.after(repo.remove);
    gitIn(repo.dir, ['remote', 'add', 'origin', 'https://github.com/acme/e2e-secrets.git']);
    await svc(server, ['secret', 'set', 'DEPLOY_KEY', '--repo', 'acme/e2e-secrets', '--value', REPO_KEY], repo.dir);
    await svc(server, ['secret', 'set', 'DEPLOY_KEY', '--repo', 'acme/e2e-secrets', '--env', 'production', '--value', ENV_KEY], repo.dir);
    await svc(server, ['var', 'set', 'REGION', '--repo', 'acme/e2e-secrets', '--env', 'production', '--value', 'eu-prod'], repo.dir);
    await svc(server, ['var', 'set', 'LEVEL', '--value', 'stored-level'], repo.dir);

    // `--secret RUN_TOKEN` takes the value from the environment: it is on no command line.
    const run = svcRun(['--secret', 'RUN_TOKEN', '--var', 'LEVEL=from-run'], { ...server.cliEnv, RUN_TOKEN }, repo.dir);
    const code = await run.exited;
    const live = `${run.stdout()}${run.stderr()}`;
    assert.equal(code, 0, live);
    assert.match(live, /run-supplied secrets: RUN_TOKEN/);
    assert.match(live, /^plain \| key checked: repository$/m);
    assert.match(live, /^plain \| run token is \*\*\*$/m);
    assert.match(live, /^plain \| run token checked$/m);
    assert.match(live, /^plain \| level is from-run$/m);
    assert.match(live, /^plain \| region is $/m);
    assert.match(live, /^deploy \| key checked: environment$/m);
    assert.match(live, /^deploy \| key is \*\*\*$/m);
    assert.match(live, /^deploy \| region is eu-prod$/m);
    assert.match(live, /^deploy \| run token checked$/m);
    const among = forbidden([REPO_KEY, ENV_KEY, RUN_TOKEN]);
    assert.deepEqual(hits(live, among), []);

    // The run is over: its supplied values are gone, so a re-run names what it would need.
    const runId = /^svc run: run (\d+) of /m.exec(run.stderr())?.[1];
    assert.ok(runId !== undefined, run.stderr());
    const rerun = spawnTs('cli/svc.ts', ['rerun', runId], server.cliEnv, repo.dir);
    assert.notEqual(await rerun.exited, 0);
    assert.match(rerun.stderr(), /RUN_TOKEN/);
    assert.match(rerun.stderr(), /LEVEL/);
    await assertNowhere(server, among);
  });
});
