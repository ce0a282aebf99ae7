/**
 * How nodes come to hold the cluster key that seals the shared keys in PostgreSQL: the first node
 * makes it, a node without it or with another one stops naming what to do (and never makes a
 * replacement), `svc cluster-key export | import` moves it, a single-node install keeps its keys
 * when it moves to PostgreSQL, and nothing readable is at rest. SQLite keeps the credential store.
 */
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { chmodSync, existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it, type TestContext } from 'node:test';
import { sql } from 'kysely';
import { createFileCredentialStore } from '../../backends/credentials/index.js';
import { exportClusterKey, importClusterKey } from '../../core/kernel/cli/index.js';
import { defaultCatalog } from '../../builtins/index.js';
import { coreServices, createHost, createSilentLogger, definePlugin, type Host } from '../../core/kernel/index.js';
import type { Database, SharedKeys } from '../../core/ports/index.js';
import { createHostEnv, type HostEnv } from '../support/host-env.js';
import { onCleanup, postgresSchemaUrl, requireService, tempDir } from '../support/services.js';

const postgres = await requireService('postgres');

interface Node {
  readonly hostEnv: HostEnv;
  readonly credentialsDir: string;
  boot(): Promise<{ host: Host; sharedKeys: SharedKeys; database: Database }>;
}

/** A node of its own (data dir, file credential store, no SVC_SYSTEM_TOKEN) on `databaseUrl`. */
function node(t: TestContext, databaseUrl: string | undefined, extra: Record<string, string> = {}): Node {
  const hostEnv = createHostEnv({ SVC_CREDENTIAL_STORE: 'file', ...(databaseUrl === undefined ? {} : { SVC_DATABASE_URL: databaseUrl }), ...extra });
  delete hostEnv.env['SVC_SYSTEM_TOKEN'];
  onCleanup(t, () => hostEnv.cleanup());
  hostEnv.writePlugins('[[plugin]]\nid = "management-api"\n\n[[plugin]]\nid = "keys-probe"\n');
  return {
    hostEnv,
    credentialsDir: join(hostEnv.env['SVC_DATA_DIR'] ?? '', 'credentials'),
    async boot() {
      let grabbed: { sharedKeys: SharedKeys; database: Database } | undefined;
      const probe = definePlugin({
        id: 'keys-probe',
        apiVersion: 1,
        deps: { sharedKeys: coreServices.sharedKeys, database: coreServices.database },
        init: (deps) => void (grabbed = deps),
      });
      const host = await createHost({
        env: hostEnv.env,
        cwd: hostEnv.dir,
        logger: createSilentLogger(),
        catalog: { ...defaultCatalog, plugins: { ...defaultCatalog.plugins, 'keys-probe': async () => ({ plugin: probe }) } },
      });
      onCleanup(t, () => host.stop());
      assert.ok(grabbed);
      return { host, ...grabbed };
    },
  };
}

const localEntry = (n: Node, name: string): string | undefined => (existsSync(join(n.credentialsDir, name)) ? readFileSync(join(n.credentialsDir, name), 'utf8') : undefined);

async function statusWith(host: Host, token: string): Promise<number> {
  return (await host.app.inject({ method: 'GET', url: '/api/v1/status', headers: { authorization: `Bearer ${token}` } })).statusCode;
}

const otherKey = (): string => `svc-cluster-key-v1:${randomBytes(32).toString('base64url')}`;

describe('the cluster key on PostgreSQL', { skip: postgres.skip }, () => {
  it('is made by the first node; a node without it stops until it is imported; then both answer to one system token', async (t) => {
    const url = postgresSchemaUrl(t, postgres.url ?? '').url;
    const a = node(t, url);
    const first = await a.boot();
    assert.match(localEntry(a, 'cluster-key') ?? '', /^svc-cluster-key-v1:/, 'made into the credential store');

    const b = node(t, url);
    await assert.rejects(b.boot(), (error: Error & { code?: string }) => {
      assert.equal(error.code, 'cluster_key_missing');
      assert.match(error.message, /svc cluster-key export > cluster\.key/);
      assert.match(error.message, /svc cluster-key import < cluster\.key/);
      assert.match(error.message, /never makes a replacement/);
      return true;
    });
    assert.equal(localEntry(b, 'cluster-key'), undefined, 'no key was made on the joining node');

    const exported = await exportClusterKey(a.hostEnv.env, a.hostEnv.dir, defaultCatalog.credentials);
    assert.equal(exported, localEntry(a, 'cluster-key'));
    assert.equal((await importClusterKey(b.hostEnv.env, b.hostEnv.dir, defaultCatalog.credentials, `${exported}\n`, { replace: false })).changed, true);
    const second = await b.boot();

    // One system token, written to each node's credential store for its CLI.
    const token = localEntry(a, 'system-token') ?? '';
    assert.match(token, /^svc_/);
    assert.equal(localEntry(b, 'system-token'), token);
    assert.equal(await statusWith(first.host, token), 200);
    assert.equal(await statusWith(second.host, token), 200);
    assert.equal(await statusWith(second.host, 'svc_wrong'), 401);

    // At rest: sealed, never the value; a row moved to another name does not open.
    const rows = (await sql<{ name: string; sealed: string }>`select name, sealed from svc_shared_keys order by name`.execute(first.database.kysely)).rows;
    assert.deepEqual(rows.map((row) => row.name), ['blob-signing-key', 'system-token']);
    const blobKey = await second.sharedKeys.get('blob-signing-key');
    for (const row of rows) {
      assert.match(row.sealed, /^v1\./);
      assert.ok(!row.sealed.includes(token) && !row.sealed.includes(blobKey ?? '-'), `${row.name} is not stored in the clear`);
    }
    const verifier = (await sql<{ verifier: string }>`select verifier from svc_cluster`.execute(first.database.kysely)).rows[0]?.verifier ?? '';
    assert.ok(!exported.includes(verifier) && verifier.length > 0, 'the database keeps a verifier, not the key');
    await sql`update svc_shared_keys set sealed = ${rows[0]?.sealed} where name = 'system-token'`.execute(first.database.kysely);
    await assert.rejects(second.sharedKeys.get('system-token'), { code: 'shared_key_damaged' });
  });

  it('a node holding another key stops and keeps it; import replaces it only when asked', async (t) => {
    const url = postgresSchemaUrl(t, postgres.url ?? '').url;
    const a = node(t, url);
    await a.boot();
    const c = node(t, url);
    const wrong = otherKey();
    await importClusterKey(c.hostEnv.env, c.hostEnv.dir, defaultCatalog.credentials, wrong, { replace: false });
    await assert.rejects(c.boot(), (error: Error & { code?: string }) => {
      assert.equal(error.code, 'cluster_key_mismatch');
      assert.match(error.message, /is not the one the shared database's keys are sealed under/);
      assert.match(error.message, /--replace/);
      return true;
    });
    assert.equal(localEntry(c, 'cluster-key'), wrong, 'the key it held is left alone');

    const right = await exportClusterKey(a.hostEnv.env, a.hostEnv.dir, defaultCatalog.credentials);
    await assert.rejects(importClusterKey(c.hostEnv.env, c.hostEnv.dir, defaultCatalog.credentials, right, { replace: false }), { code: 'cluster_key_exists' });
    await importClusterKey(c.hostEnv.env, c.hostEnv.dir, defaultCatalog.credentials, right, { replace: true });
    await c.boot();
    await assert.rejects(importClusterKey(c.hostEnv.env, c.hostEnv.dir, defaultCatalog.credentials, 'svc-cluster-key-v1:short', { replace: true }), { code: 'cluster_key_invalid' });
  });

  it('two fresh nodes racing on an empty database: one sets it up, the other stops clearly and leaves no key behind', async (t) => {
    const url = postgresSchemaUrl(t, postgres.url ?? '').url;
    const nodes = [node(t, url), node(t, url)];
    const outcomes = await Promise.allSettled(nodes.map((n) => n.boot()));
    assert.equal(outcomes.filter((outcome) => outcome.status === 'fulfilled').length, 1, 'exactly one node starts');
    const loser = outcomes.findIndex((outcome) => outcome.status === 'rejected');
    const reason = (outcomes[loser] as PromiseRejectedResult).reason as Error & { code?: string };
    assert.ok(['cluster_key_missing', 'cluster_key_mismatch'].includes(reason.code ?? ''), reason.message);
    assert.match(reason.message, /svc cluster-key import/);
    assert.equal(localEntry(nodes[loser] as Node, 'cluster-key'), undefined);
  });

  it('nodes sharing one SVC_CLUSTER_KEY_FILE start together; the file must be private', async (t) => {
    const url = postgresSchemaUrl(t, postgres.url ?? '').url;
    const file = join(await tempDir(t), 'cluster.key');
    const [a, b] = [node(t, url, { SVC_CLUSTER_KEY_FILE: file }), node(t, url, { SVC_CLUSTER_KEY_FILE: file })];
    const [first, second] = await Promise.all([a.boot(), b.boot()]);
    assert.equal(await first.sharedKeys.get('system-token'), await second.sharedKeys.get('system-token'));
    assert.equal(localEntry(a, 'cluster-key'), undefined, 'the file holds it, not the credential store');
    await assert.rejects(importClusterKey(a.hostEnv.env, a.hostEnv.dir, defaultCatalog.credentials, readFileSync(file, 'utf8'), { replace: false }), { code: 'cluster_key_file_set' });

    const elsewhere = join(await tempDir(t), 'missing.key');
    await assert.rejects(node(t, url, { SVC_CLUSTER_KEY_FILE: elsewhere }).boot(), (error: Error & { code?: string }) => {
      assert.equal(error.code, 'cluster_key_missing');
      assert.ok(error.message.includes(`put it at ${elsewhere} (mode 0600`), error.message);
      return true;
    });
    assert.equal(existsSync(elsewhere), false, 'a joining node makes no key file');

    chmodSync(file, 0o644);
    await assert.rejects(node(t, url, { SVC_CLUSTER_KEY_FILE: file }).boot(), (error: Error & { code?: string }) => {
      assert.equal(error.code, 'cluster_key_file_mode');
      assert.match(error.message, /chmod 600/);
      return true;
    });
  });

  it('a single-node install moving to PostgreSQL keeps the keys of its credential store', async (t) => {
    const url = postgresSchemaUrl(t, postgres.url ?? '').url;
    const a = node(t, url);
    const before = await createFileCredentialStore(a.credentialsDir);
    await before.set('system-token', 'svc_issued_long_ago');
    await before.set('blob-signing-key', 'the-old-blob-key');
    const { host, sharedKeys, database } = await a.boot();
    assert.equal(await statusWith(host, 'svc_issued_long_ago'), 200);
    assert.equal(await sharedKeys.get('blob-signing-key'), 'the-old-blob-key');
    const rows = (await sql<{ name: string; sealed: string }>`select name, sealed from svc_shared_keys`.execute(database.kysely)).rows;
    assert.ok(rows.some((row) => row.name === 'blob-signing-key' && !row.sealed.includes('the-old-blob-key')), 'copied into the table, sealed');

    const b = node(t, url);
    await importClusterKey(b.hostEnv.env, b.hostEnv.dir, defaultCatalog.credentials, await exportClusterKey(a.hostEnv.env, a.hostEnv.dir, defaultCatalog.credentials), { replace: false });
    const joined = await b.boot();
    assert.equal(await joined.sharedKeys.get('blob-signing-key'), 'the-old-blob-key');
    assert.equal(await statusWith(joined.host, 'svc_issued_long_ago'), 200);
  });
});

describe('the shared keys on SQLite', () => {
  it('are the credential store: no cluster key, no table, the same files as before', async (t) => {
    const a = node(t, undefined);
    const { sharedKeys, database } = await a.boot();
    assert.equal(sharedKeys.shared, false);
    assert.match(localEntry(a, 'blob-signing-key') ?? '', /^[A-Za-z0-9_-]{20,}$/);
    assert.equal(localEntry(a, 'system-token'), await sharedKeys.get('system-token'));
    assert.equal(localEntry(a, 'cluster-key'), undefined);
    const tables = await sql<{ name: string }>`select name from sqlite_master where name = 'svc_shared_keys'`.execute(database.kysely);
    assert.equal(tables.rows.length, 0);
    await assert.rejects(exportClusterKey(a.hostEnv.env, a.hostEnv.dir, defaultCatalog.credentials), { code: 'cluster_key_missing' });
  });
});
