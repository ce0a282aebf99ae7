/**
 * `svc cluster-key export | import` as an operator runs them: the key goes through stdout and
 * stdin only, lands in the credential store of the data dir the CLI's configuration names, and a
 * different key is never overwritten without --replace.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it, type TestContext } from 'node:test';
import { cliEntry, PROJECT_ROOT } from '../support/spawn-cli.js';

interface Outcome {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

function clusterKey(t: TestContext, args: readonly string[], env: Record<string, string>, input = ''): Promise<Outcome> {
  const child = spawn(process.execPath, [...cliEntry('svc'), 'cluster-key', ...args], { cwd: PROJECT_ROOT, env: { PATH: process.env.PATH ?? '', ...env }, stdio: ['pipe', 'pipe', 'pipe'] });
  t.after(() => void child.kill());
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  child.stdin.end(input);
  return new Promise((resolve) => child.on('close', (code) => resolve({ code, stdout, stderr })));
}

function node(t: TestContext): { env: Record<string, string>; entry: string } {
  const dir = mkdtempSync(join(tmpdir(), 'svc-cluster-key-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  return { env: { HOME: dir, SVC_DATA_DIR: join(dir, 'data'), SVC_CREDENTIAL_STORE: 'file' }, entry: join(dir, 'data', 'credentials', 'cluster-key') };
}

const newKey = (): string => `svc-cluster-key-v1:${randomBytes(32).toString('base64url')}`;

describe('svc cluster-key', () => {
  it('moves the key from one node to another through a pipe', async (t) => {
    const [a, b] = [node(t), node(t)];
    const none = await clusterKey(t, ['export'], a.env);
    assert.equal(none.code, 1);
    assert.match(none.stderr, /^svc cluster-key export: no cluster key here/);
    assert.equal(existsSync(a.env['SVC_DATA_DIR'] ?? ''), false, 'looking creates no data dir');

    const key = newKey();
    const first = await clusterKey(t, ['import'], a.env, `${key}\n`);
    assert.equal(first.code, 0, first.stderr);
    assert.match(first.stderr, /^imported cluster key [A-Za-z0-9_-]{12} into the file credential store's 'cluster-key'/);
    assert.equal(statSync(a.entry).mode & 0o777, 0o600);

    const exported = await clusterKey(t, ['export'], a.env);
    assert.equal(exported.code, 0, exported.stderr);
    assert.equal(exported.stdout, `${key}\n`);
    const imported = await clusterKey(t, ['import'], b.env, exported.stdout);
    assert.equal(imported.code, 0, imported.stderr);
    assert.equal(readFileSync(b.entry, 'utf8'), key);
    assert.match((await clusterKey(t, ['import'], b.env, exported.stdout)).stderr, /already holds cluster key .*; nothing changed/);

    const other = newKey();
    const refused = await clusterKey(t, ['import'], b.env, other);
    assert.equal(refused.code, 1);
    assert.match(refused.stderr, /^svc cluster-key import: .* already holds another cluster key .*--replace/);
    assert.equal(readFileSync(b.entry, 'utf8'), key, 'kept');
    assert.equal((await clusterKey(t, ['import', '--replace'], b.env, other)).code, 0);
    assert.equal(readFileSync(b.entry, 'utf8'), other);

    const garbage = await clusterKey(t, ['import'], b.env, 'not a key');
    assert.equal(garbage.code, 1);
    assert.match(garbage.stderr, /the input does not hold a cluster key/);
    assert.ok(!garbage.stderr.includes(other));
  });
});
