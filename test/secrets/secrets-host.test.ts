/**
 * The secrets plugin through a real host on SQLite and PostgreSQL: the /api/v1 routes (bearer
 * before body, 4xx cases), values sealed in the raw table, rule 10 at start-up, and
 * `svc secret` / `svc var` through the real CLI with a value piped on stdin.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test, type TestContext } from 'node:test';
import { defaultCatalog } from '../../builtins/index.js';
import { coreServices, createHost, createSilentLogger, definePlugin, type Host } from '../../core/kernel/index.js';
import type { Database } from '../../core/ports/index.js';
import { createHostEnv, TEST_SYSTEM_TOKEN, type HostEnv } from '../support/host-env.js';
import { onCleanup, postgresSchemaUrl, requireService } from '../support/services.js';
import { cliEntry, PROJECT_ROOT } from '../support/spawn-cli.js';

const postgres = await requireService('postgres');
const STORES = [
  { kind: 'sqlite', skip: false },
  { kind: 'postgres', skip: postgres.skip },
] as const;

const GRABBER = 'secrets-test-grabber';
const bearer = { authorization: `Bearer ${TEST_SYSTEM_TOKEN}` };

interface SecretsHost {
  readonly host: Host;
  readonly database: Database;
  readonly hostEnv: HostEnv;
  readonly baseUrl: string;
}

async function startHost(t: TestContext, hostEnv: HostEnv): Promise<SecretsHost> {
  hostEnv.writePlugins(['secrets', GRABBER].map((id) => `[[plugin]]\nid = "${id}"\n`).join('\n'));
  let database: Database | undefined;
  const grabber = definePlugin({ id: GRABBER, apiVersion: 1, deps: { database: coreServices.database }, init: (deps) => void (database = deps.database) });
  const host = await createHost({
    env: hostEnv.env,
    cwd: hostEnv.dir,
    logger: createSilentLogger(),
    catalog: { ...defaultCatalog, plugins: { ...defaultCatalog.plugins, [GRABBER]: async () => ({ plugin: grabber }) } },
  });
  onCleanup(t, () => host.stop());
  const baseUrl = await host.start();
  if (database === undefined) throw new Error('the grabber plugin was not initialised');
  return { host, database, hostEnv, baseUrl };
}

function newEnv(t: TestContext, kind: 'sqlite' | 'postgres', extra: Record<string, string> = {}): HostEnv {
  const schema = kind === 'postgres' ? postgresSchemaUrl(t, postgres.url ?? '') : undefined;
  const hostEnv = createHostEnv({ ...(schema === undefined ? {} : { SVC_DATABASE_URL: schema.url }), ...extra });
  onCleanup(t, () => hostEnv.cleanup());
  return hostEnv;
}

async function rawValues(database: Database): Promise<string[]> {
  const rows = (await database.kysely.selectFrom('secret_values' as never).selectAll().execute()) as Record<string, unknown>[];
  return rows.map((row) => JSON.stringify(row));
}

for (const store of STORES) {
  describe(`secrets and variables through the host (${store.kind})`, { skip: store.skip }, () => {
    test('set, list, resolve-by-list and delete; the raw table never holds a secret value', async (t) => {
      const { host, database } = await startHost(t, newEnv(t, store.kind));
      const put = (url: string, value: unknown) => host.app.inject({ method: 'PUT', url, headers: bearer, payload: { value } });
      assert.equal((await put('/api/v1/secrets/DEPLOY_KEY', 'global-value-1')).statusCode, 204);
      assert.equal((await put('/api/v1/secrets/DEPLOY_KEY?repo=octo/app', 'repo-value-2')).statusCode, 204);
      assert.equal((await put('/api/v1/secrets/DEPLOY_KEY?repo=octo/app&env=prod', 'env-value-3\nline two')).statusCode, 204);
      assert.equal((await put('/api/v1/secrets/DEPLOY_KEY?repo=octo/app&env=prod', 'env-value-4')).statusCode, 204, 'overwrite');
      assert.equal((await put('/api/v1/variables/REGION?repo=octo/app', 'eu-west-1')).statusCode, 204);

      const list = await host.app.inject({ method: 'GET', url: '/api/v1/secrets?repo=octo/app', headers: bearer });
      assert.equal(list.statusCode, 200);
      assert.doesNotMatch(list.body, /value-/);
      const secrets = (list.json() as { secrets: { name: string; repository: string | null; environment: string | null; updated_at: string }[] }).secrets;
      assert.deepEqual(
        secrets.map((s) => [s.name, s.repository, s.environment]),
        [
          ['DEPLOY_KEY', null, null],
          ['DEPLOY_KEY', 'octo/app', null],
          ['DEPLOY_KEY', 'octo/app', 'prod'],
        ],
      );
      assert.ok(secrets.every((s) => !Number.isNaN(Date.parse(s.updated_at))));
      const vars = await host.app.inject({ method: 'GET', url: '/api/v1/variables', headers: bearer });
      assert.deepEqual((vars.json() as { variables: { name: string; value: string }[] }).variables.map((v) => [v.name, v.value]), [['REGION', 'eu-west-1']]);

      const raw = (await rawValues(database)).join('\n');
      for (const value of ['global-value-1', 'repo-value-2', 'env-value-4', 'line two']) assert.ok(!raw.includes(value), `the table holds ${value} in clear`);
      assert.match(raw, /eu-west-1/, 'variables are not secret');

      const gone = await host.app.inject({ method: 'DELETE', url: '/api/v1/secrets/DEPLOY_KEY?repo=octo/app', headers: bearer });
      assert.equal(gone.statusCode, 204);
      const again = await host.app.inject({ method: 'DELETE', url: '/api/v1/secrets/DEPLOY_KEY?repo=octo/app', headers: bearer });
      assert.equal(again.statusCode, 404);
      assert.match(again.body, /no secret DEPLOY_KEY in scope octo\/app/);
      assert.equal((await rawValues(database)).length, 3);
    });

    test('bad names, scopes, bodies and sizes are 4xx with a message; no bearer is 401 before the body is read', async (t) => {
      const { host } = await startHost(t, newEnv(t, store.kind));
      const cases: [string, unknown, number, RegExp][] = [
        ['/api/v1/secrets/lower_case', { value: 'v' }, 422, /UPPER_SNAKE/],
        ['/api/v1/secrets/GITHUB_X', { value: 'v' }, 422, /GITHUB_/],
        ['/api/v1/secrets/OK?env=prod', { value: 'v' }, 422, /give the repository too/],
        ['/api/v1/secrets/OK?repo=not-a-repo', { value: 'v' }, 422, /owner\/repo/],
        ['/api/v1/secrets/OK?repo=o/r&env=_bad', { value: 'v' }, 422, /environment name/],
        ['/api/v1/secrets/OK', { nope: 1 }, 400, /must be a JSON object/],
        ['/api/v1/secrets/OK', { value: 'x'.repeat(48 * 1024 + 1) }, 422, /limit is 49152/],
        ['/api/v1/variables/EMPTY', { value: '' }, 422, /needs a value/],
      ];
      for (const [url, payload, status, message] of cases) {
        const response = await host.app.inject({ method: 'PUT', url, headers: bearer, payload: payload as Record<string, unknown> });
        assert.equal(response.statusCode, status, `${url}: ${response.body}`);
        assert.match(response.body, message);
      }
      const atLimit = await host.app.inject({ method: 'PUT', url: '/api/v1/secrets/BIG', headers: bearer, payload: { value: '\u0001'.repeat(48 * 1024) } });
      assert.equal(atLimit.statusCode, 204, 'a value at the limit fits the body limit even fully escaped');
      const huge = await host.app.inject({ method: 'PUT', url: '/api/v1/secrets/BIG', headers: bearer, payload: { value: 'x'.repeat(400 * 1024) } });
      assert.equal(huge.statusCode, 413);
      const anonymous = await host.app.inject({ method: 'PUT', url: '/api/v1/secrets/OK', headers: { 'content-type': 'application/json' }, payload: '{"value": "x", broken' });
      assert.equal(anonymous.statusCode, 401, 'the bearer is checked before the body is parsed');
      assert.equal((await host.app.inject({ method: 'GET', url: '/api/v1/secrets' })).statusCode, 401);
    });
  });
}

describe('the secrets key (rule 10, SQLite and the file credential store)', () => {
  test('kept across restarts; a missing key stops the start naming it and none is generated; a different key stops it too', async (t) => {
    const hostEnv = newEnv(t, 'sqlite', { SVC_CREDENTIAL_STORE: 'file' });
    const first = await startHost(t, hostEnv);
    const set = await first.host.app.inject({ method: 'PUT', url: '/api/v1/secrets/KEPT', headers: bearer, payload: { value: 'kept-value' } });
    assert.equal(set.statusCode, 204);
    await first.host.stop();

    const second = await startHost(t, hostEnv);
    assert.equal((await second.host.app.inject({ method: 'GET', url: '/api/v1/secrets', headers: bearer })).statusCode, 200);
    await second.host.stop();

    const keyFile = join(hostEnv.env['SVC_DATA_DIR'] ?? '', 'credentials', 'secrets.key');
    rmSync(keyFile);
    await assert.rejects(startHost(t, hostEnv), (error: Error & { code?: string }) => {
      assert.equal(error.code, 'secrets_key_missing');
      assert.match(error.message, /the file credential store's 'secrets\.key'.*no new key is generated/);
      return true;
    });
    assert.throws(() => rmSync(keyFile), /ENOENT/, 'no replacement key was written');

    writeFileSync(keyFile, `svc-secrets-key-v1:${Buffer.alloc(32, 7).toString('base64url')}`, { mode: 0o600 });
    await assert.rejects(startHost(t, hostEnv), { code: 'secrets_key_mismatch' });
  });
});

describe('rule 10 on PostgreSQL: the shared secrets key and a node\'s own secrets.key', { skip: postgres.skip }, () => {
  test('a disagreeing secrets.key in the node\'s file credential store is renamed secrets.key.orphan-<unix-ts>; the shared key keeps opening the secrets', async (t) => {
    const hostEnv = newEnv(t, 'postgres', { SVC_CREDENTIAL_STORE: 'file' });
    const first = await startHost(t, hostEnv);
    assert.equal((await first.host.app.inject({ method: 'PUT', url: '/api/v1/secrets/KEPT', headers: bearer, payload: { value: 'kept-value' } })).statusCode, 204);
    await first.host.stop();
    const credentials = join(hostEnv.env['SVC_DATA_DIR'] ?? '', 'credentials');
    assert.ok(!existsSync(join(credentials, 'secrets.key')), 'the key lives in the shared keys, not in the node\'s store');
    const stale = `svc-secrets-key-v1:${Buffer.alloc(32, 9).toString('base64url')}`;
    writeFileSync(join(credentials, 'secrets.key'), stale, { mode: 0o600 });
    const before = Math.floor(Date.now() / 1000);
    const second = await startHost(t, hostEnv);
    const orphans = readdirSync(credentials).filter((name) => name.startsWith('secrets.key.orphan-'));
    assert.equal(orphans.length, 1, readdirSync(credentials).join(' '));
    assert.ok(Number(orphans[0]?.slice('secrets.key.orphan-'.length)) >= before);
    assert.equal(readFileSync(join(credentials, orphans[0] ?? ''), 'utf8'), stale);
    assert.ok(!existsSync(join(credentials, 'secrets.key')));
    const list = await second.host.app.inject({ method: 'GET', url: '/api/v1/secrets', headers: bearer });
    assert.deepEqual((list.json() as { secrets: { name: string }[] }).secrets.map((s) => s.name), ['KEPT']);
  });
});

describe('secrets_store = "memory"', () => {
  test('mutations stay in memory: nothing reaches the table, and a restart starts empty', async (t) => {
    const hostEnv = newEnv(t, 'sqlite');
    const configFile = join(hostEnv.dir, 'svc.toml');
    writeFileSync(configFile, 'secrets_store = "memory"\n', { mode: 0o600 });
    hostEnv.env['SVC_CONFIG'] = configFile;
    const first = await startHost(t, hostEnv);
    const set = await first.host.app.inject({ method: 'PUT', url: '/api/v1/secrets/FLEETING', headers: bearer, payload: { value: 'in-memory-only' } });
    assert.equal(set.statusCode, 204);
    const list = await first.host.app.inject({ method: 'GET', url: '/api/v1/secrets', headers: bearer });
    assert.deepEqual((list.json() as { secrets: { name: string }[] }).secrets.map((s) => s.name), ['FLEETING']);
    assert.deepEqual(await rawValues(first.database), []);
    await first.host.stop();
    const second = await startHost(t, hostEnv);
    assert.deepEqual((( await second.host.app.inject({ method: 'GET', url: '/api/v1/secrets', headers: bearer })).json() as { secrets: unknown[] }).secrets, []);
  });
});

describe('[secrets] in the config file and the service-manager credential (rules 10 and 11)', () => {
  test('svc secret seal prints an entry that opens on the next start; a tampered or moved one stops the start naming it', async (t) => {
    const hostEnv = newEnv(t, 'sqlite', { SVC_CREDENTIAL_STORE: 'file' });
    const first = await startHost(t, hostEnv);
    const env = { SVC_URL: first.baseUrl, SVC_TOKEN: TEST_SYSTEM_TOKEN, HOME: PROJECT_ROOT };
    const sealed = await svc(['secret', 'seal', 'DEPLOY_KEY', '--repo', 'octo/app', '--env', 'prod'], env, 'sealed-secret-value\n');
    assert.equal(sealed.code, 0, sealed.output);
    assert.match(sealed.output, /^\[secrets\.environment\."octo\/app"\.prod\]\nDEPLOY_KEY = "svc-sealed-v1:[A-Za-z0-9_-]+"\n$/);
    assert.doesNotMatch(sealed.output, /sealed-secret-value/);
    const global = await first.host.app.inject({ method: 'POST', url: '/api/v1/secrets/GLOBAL_ONE/seal', headers: bearer, payload: { value: 'global-sealed-value' } });
    assert.equal(global.statusCode, 200, global.body);
    const view = global.json() as { table: string; line: string; sealed: string };
    assert.equal(view.table, '[secrets.global]');
    const bad = await first.host.app.inject({ method: 'POST', url: '/api/v1/secrets/lower/seal', headers: bearer, payload: { value: 'v' } });
    assert.equal(bad.statusCode, 422);
    const big = await first.host.app.inject({ method: 'POST', url: '/api/v1/secrets/BIG/seal', headers: bearer, payload: { value: 'x'.repeat(48 * 1024 + 1) } });
    assert.equal(big.statusCode, 422);
    assert.equal((await first.host.app.inject({ method: 'POST', url: '/api/v1/secrets/OK/seal', payload: { value: 'v' } })).statusCode, 401);
    assert.equal((await first.host.app.inject({ method: 'GET', url: '/api/v1/secrets', headers: bearer })).json().secrets.length, 0, 'sealing stores nothing');
    await first.host.stop();

    const configFile = join(hostEnv.dir, 'svc.toml');
    writeFileSync(configFile, `${sealed.output}\n${view.table}\n${view.line}\n`, { mode: 0o600 });
    hostEnv.env['SVC_CONFIG'] = configFile;
    const second = await startHost(t, hostEnv);
    const listed = (await second.host.app.inject({ method: 'GET', url: '/api/v1/secrets', headers: bearer })).json() as { secrets: { name: string; source: string; in_effect: boolean }[] };
    assert.deepEqual(listed.secrets.map((s) => [s.name, s.source, s.in_effect]), [['GLOBAL_ONE', 'config', true], ['DEPLOY_KEY', 'config', true]]);
    const rm = await second.host.app.inject({ method: 'DELETE', url: '/api/v1/secrets/GLOBAL_ONE', headers: bearer });
    assert.equal(rm.statusCode, 409);
    assert.match(rm.body, /comes from the config file's \[secrets\] tables .*delete its line/);
    await second.host.stop();

    // The global entry's sealed text moved to another name does not open: the start stops naming the entry only.
    writeFileSync(configFile, `${view.table}\nMOVED = ${JSON.stringify(view.sealed)}\n`, { mode: 0o600 });
    await assert.rejects(startHost(t, hostEnv), (error: Error & { code?: string }) => {
      assert.equal(error.code, 'secrets_config_invalid');
      assert.match(error.message, /\[secrets\.global\] MOVED: does not open with this installation's secrets key/);
      assert.ok(!error.message.includes(view.sealed) && !error.message.includes('global-sealed-value'));
      return true;
    });
  });

  test('the svc-secrets credential overlays the store: listed as credential, rm and set answer 409 saying how to change it', async (t) => {
    const hostEnv = newEnv(t, 'sqlite');
    const credentials = join(hostEnv.dir, 'run-credentials');
    mkdirSync(credentials);
    writeFileSync(join(credentials, 'svc-secrets'), '[secrets.repository."octo/app"]\nNPM_TOKEN = "overlay-npm-token"\n', { mode: 0o400 });
    hostEnv.env['CREDENTIALS_DIRECTORY'] = credentials;
    const { host } = await startHost(t, hostEnv);
    const put = await host.app.inject({ method: 'PUT', url: '/api/v1/secrets/NPM_TOKEN?repo=octo/app', headers: bearer, payload: { value: 'shadowed' } });
    assert.equal(put.statusCode, 409);
    assert.match(put.body, /service-manager credential 'svc-secrets', which takes precedence/);
    assert.equal((await host.app.inject({ method: 'PUT', url: '/api/v1/secrets/NPM_TOKEN', headers: bearer, payload: { value: 'global-one' } })).statusCode, 204, 'another scope is free');
    const list = await host.app.inject({ method: 'GET', url: '/api/v1/secrets?repo=octo/app', headers: bearer });
    assert.deepEqual((list.json() as { secrets: { repository: string | null; source: string }[] }).secrets.map((s) => [s.repository, s.source]), [[null, 'store'], ['octo/app', 'credential']]);
    assert.doesNotMatch(list.body, /overlay-npm-token/);
    const rm = await host.app.inject({ method: 'DELETE', url: '/api/v1/secrets/NPM_TOKEN?repo=octo/app', headers: bearer });
    assert.equal(rm.statusCode, 409);
    assert.match(rm.body, /cannot be removed while the server runs: remove it from that credential .* and restart the service/);
  });
});

describe('svc secret and svc var through the real CLI', () => {
  test('a secret piped on stdin is set, listed without its value and removed; a var takes its value as an argument', async (t) => {
    const { database, baseUrl } = await startHost(t, newEnv(t, 'sqlite'));
    const env = { SVC_URL: baseUrl, SVC_TOKEN: TEST_SYSTEM_TOKEN, HOME: PROJECT_ROOT };
    const set = await svc(['secret', 'set', 'PIPED', '--repo', 'octo/app', '--env', 'prod'], env, 'piped-secret-value\n');
    assert.equal(set.code, 0, set.output);
    assert.match(set.output, /set secret PIPED \(octo\/app env:prod\)/);
    assert.ok(!(await rawValues(database)).join('').includes('piped-secret-value'));
    const list = await svc(['secret', 'list', '--repo', 'octo/app'], env);
    assert.equal(list.code, 0, list.output);
    assert.match(list.output, /^NAME\s+SCOPE\s+UPDATED\s+SOURCE\nPIPED\s+octo\/app env:prod\s+\d{4}-\S+\s+store\n/);
    assert.doesNotMatch(list.output, /piped-secret-value/);
    const bad = await svc(['secret', 'set', 'bad-name', '--value', 'x'], env);
    assert.equal(bad.code, 1);
    assert.match(bad.output, /svc secret set: 'bad-name' is not a secret name: use UPPER_SNAKE.*\(HTTP 422\)/);
    const rm = await svc(['secret', 'rm', 'PIPED', '--repo', 'octo/app', '--env', 'prod'], env);
    assert.equal(rm.code, 0, rm.output);
    assert.match((await svc(['secret', 'list'], env)).output, /^no secrets$/m);

    assert.equal((await svc(['var', 'set', 'REGION', '--value', 'eu-west-1'], env)).code, 0);
    assert.match((await svc(['var', 'list'], env)).output, /REGION\s+global\s+\S+\s+eu-west-1/);
    assert.equal((await svc(['var', 'rm', 'REGION'], env)).code, 0);
    const missing = await svc(['var', 'rm', 'REGION'], env);
    assert.equal(missing.code, 1);
    assert.match(missing.output, /no variable REGION in scope global \(HTTP 404\)/);
  });
});

async function svc(args: readonly string[], env: Record<string, string>, stdin?: string): Promise<{ code: number | null; output: string }> {
  const child = spawn(process.execPath, [...cliEntry('svc'), ...args], { cwd: PROJECT_ROOT, env: { PATH: process.env.PATH ?? '', ...env }, stdio: ['pipe', 'pipe', 'pipe'] });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stdin.end(stdin ?? '');
  const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
  return { code, output };
}
