import assert from 'node:assert/strict';
import { test } from 'node:test';
import { memoryRows } from './rows.js';
import { checkScope, MAX_VALUE_BYTES } from './scope.js';
import { generateSecretsKey, openSecret, sealSecret } from './sealing.js';
import { createSecretStore, precedence } from './secret-store.js';

const clock = { now: () => 1_700_000_000_000 };

test('a sealed secret opens only under its own key, name and scope', () => {
  const key = generateSecretsKey();
  const scope = { repository: 'o/r' };
  const sealed = sealSecret(key, scope, 'TOKEN', 'hunter2');
  assert.ok(!sealed.includes('hunter2'));
  assert.notEqual(sealSecret(key, scope, 'TOKEN', 'hunter2'), sealed, 'randomised');
  assert.equal(openSecret(key, scope, 'TOKEN', sealed), 'hunter2');
  assert.throws(() => openSecret(key, scope, 'OTHER', sealed), { code: 'secret_damaged' });
  assert.throws(() => openSecret(key, {}, 'TOKEN', sealed), { code: 'secret_damaged' });
  assert.throws(() => openSecret(key, { repository: 'o/r', environment: 'prod' }, 'TOKEN', sealed), { code: 'secret_damaged' });
  assert.throws(() => openSecret(generateSecretsKey(), scope, 'TOKEN', sealed), { code: 'secret_damaged' });
});

test('precedence: environment over repository over global; other repositories and environments do not apply', async () => {
  const rows = memoryRows();
  const store = createSecretStore({ rows, key: generateSecretsKey(), clock });
  await store.set('secret', {}, 'A', 'global-a');
  await store.set('secret', {}, 'B', 'global-b');
  await store.set('secret', { repository: 'o/r' }, 'B', 'repo-b');
  await store.set('secret', { repository: 'o/r' }, 'C', 'repo-c');
  await store.set('secret', { repository: 'o/r', environment: 'prod' }, 'C', 'prod-c');
  await store.set('secret', { repository: 'o/other' }, 'A', 'other-a');
  await store.set('secret', { repository: 'o/r', environment: 'staging' }, 'A', 'staging-a');
  assert.deepEqual(await store.resolve('secret', { repository: 'o/r', environment: 'prod' }), { A: 'global-a', B: 'repo-b', C: 'prod-c' });
  assert.deepEqual(await store.resolve('secret', { repository: 'o/r' }), { A: 'global-a', B: 'repo-b', C: 'repo-c' });
  assert.deepEqual(await store.resolve('secret', { repository: 'x/y' }), { A: 'global-a', B: 'global-b' });
  assert.equal(precedence({ repository: 'o/r', environment: 'prod' }, { repository: 'o/r' }), -1);
  // Rows hold sealed values only.
  for (const row of await rows.list('secret', {})) assert.ok(row.value.startsWith('s1.') && !/global-|repo-|prod-|other-|staging-/.test(row.value));
  // Listing shows no secret value; variables keep theirs.
  assert.ok((await store.list('secret', {})).every((entry) => entry.value === undefined));
  await store.set('var', { repository: 'o/r' }, 'REGION', 'eu');
  assert.deepEqual((await store.list('var', { repository: 'o/r' })).map((entry) => entry.value), ['eu']);
});

test('names, scopes and sizes are refused with a message saying what to do', async () => {
  const store = createSecretStore({ rows: memoryRows(), key: generateSecretsKey(), clock });
  await assert.rejects(store.set('secret', {}, 'lower', 'v'), /UPPER_SNAKE/);
  await assert.rejects(store.set('secret', {}, '1ABC', 'v'), /not starting with a digit/);
  await assert.rejects(store.set('secret', {}, 'GITHUB_TOKEN', 'v'), /must not start with GITHUB_/);
  await assert.rejects(store.set('secret', {}, 'BIG', 'x'.repeat(MAX_VALUE_BYTES + 1)), { code: 'value_too_large' });
  await store.set('secret', {}, 'EXACT', 'x'.repeat(MAX_VALUE_BYTES));
  await assert.rejects(store.remove('secret', { repository: 'o/r' }, 'EXACT'), /no secret EXACT in scope o\/r/);
  assert.throws(() => checkScope(undefined, 'prod'), /give the repository too/);
  assert.throws(() => checkScope('noslash', undefined), /owner\/repo/);
  assert.throws(() => checkScope('o/r', '-prod'), /not starting with - or _/);
  assert.throws(() => checkScope('o/r', 'e'.repeat(256)), /at most 255 bytes/);
  assert.deepEqual(checkScope('o/r', 'prod_1'), { repository: 'o/r', environment: 'prod_1' });
});
