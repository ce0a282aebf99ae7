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

/** Each value, its lines, and their base64: none may appear anywhere. */
const FORBIDDEN = [TOKEN, MULTI, ...MULTI.split('\n')].flatMap((value) => [value, Buffer.from(value).toString('base64')]);

function hits(text: string): string[] {
  return FORBIDDEN.filter((value) => text.includes(value));
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

    // The store, every text column of every table.
    const db = new Database(join(server.dataDir, 'svc.db'), { readonly: true, fileMustExist: true });
    t.after(() => db.close());
    const tables = db.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").all() as { name: string }[];
    assert.ok(tables.some((table) => table.name === 'secret_values') && tables.some((table) => table.name === 'engine_runs'));
    for (const { name } of tables) {
      for (const row of db.prepare(`SELECT * FROM "${name}"`).all() as Record<string, unknown>[]) {
        for (const [column, value] of Object.entries(row)) {
          const text = Buffer.isBuffer(value) ? value.toString('latin1') : String(value);
          assert.deepEqual(hits(text), [], `${name}.${column}`);
        }
      }
    }
    // Every file of the data directory (the store's files and WAL, blobs, log chunks, the pool's guests) and the server's log.
    const files = await filesUnder(server.dataDir);
    assert.ok(files.some((file) => file.endsWith('svc.db')) && files.some((file) => file.includes('blobs')), files.join('\n'));
    for (const file of files) {
      const content = await readFile(file).catch(() => Buffer.alloc(0));
      assert.deepEqual(hits(content.toString('latin1')), [], file);
    }
    assert.deepEqual(hits(`${server.serve().stdout()}${server.serve().stderr()}`), [], "the server's log");
  });
});
