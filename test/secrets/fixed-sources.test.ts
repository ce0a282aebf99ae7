import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test, type TestContext } from 'node:test';
import { createFileCredentialStore, createMemoryCredentialStore } from '../../backends/credentials/index.js';
import { createSilentLogger } from '../../core/kernel/index.js';
import { openConfigSecrets, OVERLAY_CREDENTIAL_NAME, readCredentialOverlay, tableHeader } from '../../plugins/secrets/fixed-sources.js';
import { memoryRows } from '../../plugins/secrets/rows.js';
import { CONFIG_SEALED_PREFIX, generateSecretsKey, openConfigSecret, sealConfigSecret, sealSecret } from '../../plugins/secrets/sealing.js';
import { createSecretStore } from '../../plugins/secrets/secret-store.js';
import { loadSecretsKey, SECRETS_KEY_NAME } from '../../plugins/secrets/secrets-key.js';

const clock = { now: () => 1_700_000_000_000 };

function tempDir(t: TestContext): string {
  const dir = mkdtempSync(join(tmpdir(), 'svc-secrets-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

test('the config sealed format: versioned, randomised, opens only under its key, name and scope, and never as a stored row', () => {
  const key = generateSecretsKey();
  const scope = { repository: 'octo/app', environment: 'prod' };
  const sealed = sealConfigSecret(key, scope, 'DB_PASSWORD', 'pa55-word');
  assert.ok(sealed.startsWith(CONFIG_SEALED_PREFIX) && !sealed.includes('pa55'));
  assert.notEqual(sealConfigSecret(key, scope, 'DB_PASSWORD', 'pa55-word'), sealed);
  assert.equal(openConfigSecret(key, scope, 'DB_PASSWORD', ` ${sealed}\n`), 'pa55-word');
  assert.equal(openConfigSecret(key, scope, 'OTHER', sealed), undefined, 'moved to another name');
  assert.equal(openConfigSecret(key, { repository: 'octo/app' }, 'DB_PASSWORD', sealed), undefined, 'moved to the repository scope');
  assert.equal(openConfigSecret(key, { repository: 'octo/app', environment: 'staging' }, 'DB_PASSWORD', sealed), undefined, 'moved to another environment');
  assert.equal(openConfigSecret(key, {}, 'DB_PASSWORD', sealed), undefined, 'moved to global');
  assert.equal(openConfigSecret(generateSecretsKey(), scope, 'DB_PASSWORD', sealed), undefined, 'another key');
  const body = sealed.slice(CONFIG_SEALED_PREFIX.length);
  const flipped = `${CONFIG_SEALED_PREFIX}${body.slice(0, 20)}${body[20] === 'A' ? 'B' : 'A'}${body.slice(21)}`;
  assert.equal(openConfigSecret(key, scope, 'DB_PASSWORD', flipped), undefined, 'tampered');
  assert.equal(openConfigSecret(key, scope, 'DB_PASSWORD', sealed.replace('v1', 'v2')), undefined, 'another version');
  assert.equal(openConfigSecret(key, scope, 'DB_PASSWORD', sealSecret(key, scope, 'DB_PASSWORD', 'pa55-word')), undefined, "a stored row's form");
  assert.equal(tableHeader(scope), '[secrets.environment."octo/app".prod]');
  assert.equal(tableHeader({ repository: 'octo/app' }), '[secrets.repository."octo/app"]');
  assert.equal(tableHeader({}), '[secrets.global]');
});

test('config entries open at start; each bad one is named (table and name), never its value or sealed text', () => {
  const key = generateSecretsKey();
  const good = sealConfigSecret(key, {}, 'GOOD', 'good-value');
  const moved = sealConfigSecret(key, { repository: 'octo/app' }, 'MOVED', 'moved-value');
  const foreign = sealConfigSecret(generateSecretsKey(), { repository: 'octo/app', environment: 'prod' }, 'FOREIGN', 'foreign-value');
  const opened = openConfigSecrets({ global: { GOOD: good } }, key, '/etc/svc/config.toml', clock.now());
  assert.deepEqual(opened.map((entry) => [entry.name, entry.value, entry.source]), [['GOOD', 'good-value', 'config']]);
  assert.throws(
    () =>
      openConfigSecrets(
        { global: { GOOD: good, PLAIN: 'plain-text-value' }, repository: { 'octo/app': { OTHER: moved } }, environment: { 'octo/app': { prod: { FOREIGN: foreign } } } },
        key,
        '/etc/svc/config.toml',
        clock.now(),
      ),
    (error: Error & { code?: string }) => {
      assert.equal(error.code, 'secrets_config_invalid');
      assert.match(error.message, /\/etc\/svc\/config\.toml \[secrets\]: 3 problems/);
      assert.match(error.message, /\[secrets\.global\] PLAIN: not a sealed value .*svc secret seal PLAIN\n/);
      assert.match(error.message, /\[secrets\.repository\."octo\/app"\] OTHER: does not open .*svc secret seal OTHER --repo octo\/app/);
      assert.match(error.message, /\[secrets\.environment\."octo\/app"\.prod\] FOREIGN: does not open/);
      for (const hidden of ['plain-text-value', moved, foreign, good]) assert.ok(!error.message.includes(hidden), 'no value or sealed text in the message');
      return true;
    },
  );
  assert.throws(() => openConfigSecrets({ global: { GITHUB_X: good } }, key, undefined, 0), /\[secrets\.global\] GITHUB_X: .*reserved/);
});

test('the service-manager credential: plain [secrets.*] maps; absent is no overlay; malformed names the entry, never a value', (t) => {
  const dir = tempDir(t);
  assert.deepEqual(readCredentialOverlay(undefined, 0), []);
  assert.deepEqual(readCredentialOverlay(dir, 0), [], 'no svc-secrets credential');
  const path = join(dir, OVERLAY_CREDENTIAL_NAME);
  writeFileSync(path, '[secrets.global]\nTOKEN = "overlay-token"\n\n[secrets.environment."octo/app".prod]\nMULTI = """\nline-one\nline-two"""\n');
  assert.deepEqual(
    readCredentialOverlay(dir, 0).map((entry) => [entry.name, entry.scope, entry.value, entry.source]),
    [
      ['TOKEN', {}, 'overlay-token', 'credential'],
      ['MULTI', { repository: 'octo/app', environment: 'prod' }, 'line-one\nline-two', 'credential'],
    ],
  );
  writeFileSync(path, 'TOKEN = "not-in-a-table"\n[secrets.repository."bad"]\nX = "x-value"\n[secrets.global]\nlower = "lower-value"\n');
  assert.throws(
    () => readCredentialOverlay(dir, 0),
    (error: Error & { code?: string }) => {
      assert.equal(error.code, 'secrets_credential_invalid');
      assert.match(error.message, /TOKEN: unknown; this credential holds \[secrets\.\*\] tables only/);
      assert.match(error.message, /'bad' is not a repository/);
      assert.match(error.message, /\[secrets\.global\] lower: .*UPPER_SNAKE/);
      assert.doesNotMatch(error.message, /not-in-a-table|x-value|lower-value/);
      return true;
    },
  );
  writeFileSync(path, '[secrets.global]\nTOKEN = "unterminated-secret-value\n');
  assert.throws(() => readCredentialOverlay(dir, 0), (error: Error) => /not valid TOML \(line 2/.test(error.message) && !error.message.includes('unterminated-secret-value'));
});

test('sources: credential > store > config for one scope and name, then the scope precedence; list names each source; rm and set answer 409 where they cannot act', async () => {
  const key = generateSecretsKey();
  const fixed = {
    config: [
      { scope: {}, name: 'A', value: 'config-a', source: 'config' as const, updatedAt: 1 },
      { scope: { repository: 'o/r' }, name: 'B', value: 'config-b', source: 'config' as const, updatedAt: 1 },
      { scope: {}, name: 'C', value: 'config-c', source: 'config' as const, updatedAt: 1 },
    ],
    credential: [{ scope: {}, name: 'C', value: 'credential-c', source: 'credential' as const, updatedAt: 2 }],
  };
  const store = createSecretStore({ rows: memoryRows(), key, clock, fixed });
  await store.set('secret', {}, 'A', 'store-a');
  await store.set('secret', {}, 'B', 'store-b');
  assert.deepEqual(await store.resolve('secret', { repository: 'o/r' }), { A: 'store-a', B: 'config-b', C: 'credential-c' }, 'the repository scope beats a global store value');
  assert.deepEqual(await store.resolve('secret', { repository: 'x/y' }), { A: 'store-a', B: 'store-b', C: 'credential-c' });
  assert.deepEqual(
    (await store.list('secret', {})).map((entry) => [entry.name, entry.scope.repository ?? '', entry.source, entry.inEffect]),
    [
      ['A', '', 'store', true],
      ['A', '', 'config', false],
      ['B', '', 'store', true],
      ['C', '', 'credential', true],
      ['C', '', 'config', false],
      ['B', 'o/r', 'config', true],
    ],
  );
  assert.deepEqual((await store.list('secret', { repository: 'x/y' })).map((entry) => entry.name), ['A', 'A', 'B', 'C', 'C'], 'other repositories left out');
  await assert.rejects(store.remove('secret', {}, 'C'), (error: Error & { statusCode?: number; code?: string }) => {
    assert.equal(error.code, 'secret_from_credential');
    assert.match(error.message, /secret C \(global\) comes from the service-manager credential 'svc-secrets' and cannot be removed while the server runs: .*restart/);
    return true;
  });
  await assert.rejects(store.set('secret', {}, 'C', 'shadowed'), { code: 'secret_from_credential', message: /would never be used/ });
  await assert.rejects(store.remove('secret', { repository: 'o/r' }, 'B'), { code: 'secret_from_config', message: /delete its line from the config file/ });
  await store.remove('secret', {}, 'A');
  assert.equal((await store.resolve('secret', { repository: 'o/r' }))['A'], 'config-a', 'the config value shows through once the stored one is gone');
  await assert.rejects(store.remove('secret', {}, 'A'), { code: 'secret_from_config' });
  await store.set('var', {}, 'C', 'a variable');
  assert.deepEqual(await store.resolve('var', { repository: 'o/r' }), { C: 'a variable' }, 'variables have no fixed sources');
});

test("rule 10: a node's own secrets.key disagreeing with the shared key is renamed secrets.key.orphan-<unix-ts>; one that agrees stays", async (t) => {
  const dir = tempDir(t);
  const local = await createFileCredentialStore(join(dir, 'credentials'));
  const sharedStore = createMemoryCredentialStore();
  const shared = { ...sharedStore, shared: true, compareAndSet: async (name: string, expected: string | undefined, value: string) => {
    if ((await sharedStore.get(name)) === expected) await sharedStore.set(name, value);
    return sharedStore.get(name);
  } };
  const key = generateSecretsKey();
  await shared.set(SECRETS_KEY_NAME, key.text);
  const stale = generateSecretsKey().text;
  await local.set(SECRETS_KEY_NAME, stale);
  const check = { local, clock, logger: createSilentLogger() };
  assert.equal((await loadSecretsKey(shared, memoryRows(), check)).text, key.text);
  const orphan = join(dir, 'credentials', `secrets.key.orphan-${clock.now() / 1000}`);
  assert.equal(readFileSync(orphan, 'utf8'), stale, 'kept under the orphan name');
  assert.ok(!existsSync(join(dir, 'credentials', 'secrets.key')));

  await local.set(SECRETS_KEY_NAME, key.text);
  await loadSecretsKey(shared, memoryRows(), { ...check, clock: { now: () => clock.now() + 5000 } });
  assert.equal(await local.get(SECRETS_KEY_NAME), key.text, 'an agreeing entry is left alone');
  assert.ok(!existsSync(join(dir, 'credentials', `secrets.key.orphan-${clock.now() / 1000 + 5}`)));
});
