import assert from 'node:assert/strict';
import { createPrivateKey, createPublicKey } from 'node:crypto';
import { describe, it, type TestContext } from 'node:test';
import { createForgeClients } from '../../core/forge/index.js';
import type { CredentialStore } from '../../core/ports/index.js';
import { startForgeSimulator } from '../../test/support/forge-simulator/index.js';
import { ManualClock } from '../../test/support/manual-clock.js';
import { testRsaKeyPem } from '../../test/support/test-rsa-keys.js';
import { loadForgeApps, storeForgeApp } from './app-store.js';
import { createForgeApps } from './forge-apps.js';
import { forgeWarnings } from './forge-status.js';

function memoryKeys(): CredentialStore {
  const entries = new Map<string, string>();
  return {
    kind: 'memory',
    persistent: false,
    get: async (name) => entries.get(name),
    set: async (name, value) => void entries.set(name, value),
    delete: async (name) => entries.delete(name),
  };
}

const pkcs1 = (pem: string) => createPrivateKey(pem).export({ type: 'pkcs1', format: 'pem' }).toString();

/** A simulator with App 101 (PKCS#1 key, GitHub's format) installed on acme/app and acme/lib, and App 202 (PKCS#8) on other/tool. */
async function setup(t: TestContext, requestTimeoutMs = 10_000) {
  // The forge's clock is svc's: a test moving time checks App JWTs as the forge would then.
  const clock = new ManualClock(Date.now());
  const forge = await startForgeSimulator(t, { now: () => clock.now() });
  const key101 = pkcs1(testRsaKeyPem());
  const key202 = testRsaKeyPem();
  assert.match(key101, /BEGIN RSA PRIVATE KEY/);
  assert.match(key202, /BEGIN PRIVATE KEY/);
  forge.apps.add({
    id: 101,
    slug: 'svc-acme',
    publicKey: createPublicKey(key101).export({ type: 'spki', format: 'pem' }).toString(),
    installations: [{ id: 1001, account: 'acme', repositories: ['acme/app', 'acme/lib'], permissions: { contents: 'write', checks: 'write', metadata: 'read' } }],
  });
  forge.apps.add({
    id: 202,
    slug: 'svc-other',
    publicKey: createPublicKey(key202).export({ type: 'spki', format: 'pem' }).toString(),
    installations: [{ id: 2002, account: 'other', repositories: ['other/tool'], permissions: { contents: 'read', metadata: 'read' } }],
  });
  for (const name of ['acme/app', 'acme/lib', 'other/tool']) await forge.repositories.create(name, { files: { 'README.md': name } }, { private: true });
  const keys = memoryKeys();
  await storeForgeApp(keys, { appId: 101, privateKey: key101, webhookSecret: 'whsec-101' });
  await storeForgeApp(keys, { appId: 202, privateKey: key202 });
  const clients = createForgeClients({ defaultApiUrl: forge.apiUrl, clock, breaker: { enabled: true, threshold: 3 }, requestTimeoutMs });
  const apps = createForgeApps({ apps: await loadForgeApps(keys), client: clients.forApi(), clock, hasPat: false });
  return { forge, keys, clock, clients, apps };
}

describe('forge Apps', () => {
  it('loads PKCS#1 and PKCS#8 keys and signs App JWTs the forge accepts, iat 60 s back and 10 minutes long', async (t) => {
    const { forge, apps, clients } = await setup(t);
    assert.deepEqual(apps.apps, [{ appId: 101 }, { appId: 202 }]);
    assert.equal(apps.webhookSecret(101), 'whsec-101');
    for (const appId of [101, 202]) {
      const { data } = await clients.forApi().request('GET /app', { headers: { authorization: `Bearer ${await apps.appJwt(appId)}` } });
      assert.equal(data?.id, appId);
    }
    for (const jwt of forge.apps.acceptedJwts) {
      assert.equal(jwt.exp - jwt.iat, 600);
      assert.ok(Math.abs(jwt.at - 60 - jwt.iat) <= 2, `iat ${jwt.iat} is 60 s before ${jwt.at}`);
    }
    await assert.rejects(apps.appJwt(303), { code: 'not_found', message: /no forge App 303 .*101, 202.*svc setup forge/ });
  });

  it('finds the installation of a repository among several Apps, and caches it', async (t) => {
    const { forge, apps } = await setup(t);
    assert.deepEqual(await apps.installationFor('other/tool'), { appId: 202, installationId: 2002 });
    assert.deepEqual(await apps.installationFor('acme/app'), { appId: 101, installationId: 1001 });
    assert.equal(await apps.installationFor('nobody/here'), undefined);
    const asked = forge.count('apps/get-repo-installation');
    await apps.installationFor('acme/app');
    await apps.installationFor('nobody/here');
    assert.equal(forge.count('apps/get-repo-installation'), asked);
  });

  it('mints a token narrowed to one repository and the permissions asked, shares it until 5 minutes before expiry, and records it in the ledger', async (t) => {
    const { forge, apps, clock } = await setup(t);
    const tokens = await Promise.all(Array.from({ length: 20 }, () => apps.installationToken('acme/app', { contents: 'read' })));
    assert.equal(new Set(tokens.map((token) => token.token)).size, 1, 'twenty concurrent asks share one mint');
    assert.equal(forge.count('apps/create-installation-access-token'), 1);
    const [token] = tokens;
    assert.ok(token);
    const minted = forge.apps.tokens.get(token.token);
    assert.deepEqual(minted?.repositories, ['acme/app']);
    assert.deepEqual(minted?.permissions, { contents: 'read' });
    assert.deepEqual(apps.recognise(token.token), { appId: 101, installationId: 1001, repository: 'acme/app', permissions: { contents: 'read' }, expiresAt: token.expiresAt });
    assert.equal(apps.recognise('ghs_not-ours'), undefined);

    // The token reads its repository and nothing else.
    const read = (repo: string) => fetch(`${forge.apiUrl}/repos/${repo}/commits/main`, { headers: { authorization: `token ${token.token}`, accept: 'application/vnd.github.sha' } });
    assert.equal((await read('acme/app')).status, 200);
    assert.equal((await read('acme/lib')).status, 404);

    // Other permissions are another token; the shared one is renewed once it is within 5 minutes of expiry.
    const writer = await apps.installationToken('acme/app', { contents: 'write', checks: 'write' });
    assert.notEqual(writer.token, token.token);
    clock.set(token.expiresAt - 5 * 60_000);
    const renewed = await apps.installationToken('acme/app', { contents: 'read' });
    assert.notEqual(renewed.token, token.token);
    assert.equal(forge.count('apps/create-installation-access-token'), 3);
    assert.equal(apps.stats.cacheHits, 19);
  });

  it('refuses a permission the installation does not grant and a repository no App covers, saying what to fix', async (t) => {
    const { apps } = await setup(t);
    await assert.rejects(apps.installationToken('other/tool', { contents: 'write' }), { status: 400, message: /refused .*access_tokens for other\/tool \(422: The permissions requested are not granted/ });
    await assert.rejects(apps.installationToken('acme/missing', { contents: 'read' }), { status: 404, message: /no App installation covers acme\/missing: none of svc's Apps \(101, 202\)/ });
  });

  it('revokes a job\'s exclusive token on the forge and forgets it; the shared token stays', async (t) => {
    const { forge, apps } = await setup(t);
    const shared = await apps.installationToken('acme/app', { contents: 'read' });
    const job = await apps.installationToken('acme/app', { contents: 'read' }, { exclusive: true });
    assert.notEqual(job.token, shared.token);
    assert.equal(await apps.revoke(job.token), true);
    assert.equal(forge.count('apps/revoke-installation-access-token'), 1);
    assert.equal(forge.apps.tokens.get(job.token)?.revoked, true);
    assert.equal(apps.recognise(job.token), undefined);
    assert.equal(await apps.revoke(job.token), false, 'a token svc no longer holds is not sent to the forge');
    assert.equal(forge.count('apps/revoke-installation-access-token'), 1);
    assert.equal((await apps.installationToken('acme/app', { contents: 'read' })).token, shared.token);

    // Two jobs asking at the same moment get two tokens: revoking one leaves the other working.
    const [first, second] = await Promise.all([1, 2].map(() => apps.installationToken('acme/app', { contents: 'read' }, { exclusive: true })));
    assert.ok(first && second);
    assert.notEqual(first.token, second.token);
    await apps.revoke(first.token);
    assert.equal(forge.apps.liveToken(second.token)?.token, second.token);
    assert.ok(apps.recognise(second.token));
  });

  it('a key that does not parse stops loading, naming the App and what to fix', async () => {
    const keys = memoryKeys();
    await assert.rejects(storeForgeApp(keys, { appId: 7, privateKey: 'not a key' }), { status: 400, message: /App 7 cannot be used: it is not a PEM private key/ });
    await storeForgeApp(keys, { appId: 7, privateKey: testRsaKeyPem() });
    await keys.set('forge.app.7', JSON.stringify({ appId: 7, privateKey: '-----BEGIN RSA PRIVATE KEY-----\nAAAA\n-----END RSA PRIVATE KEY-----\n' }));
    await assert.rejects(loadForgeApps(keys), { code: 'config_invalid', message: /^forge App 7: its private key \(credential forge\.app\.7\) cannot be used: the PEM does not parse .*svc setup forge --via app --app-id 7 --pem-file/ });
  });

  it('App calls go through the breaker: a forge failing opens it, the status names forge_unavailable, and a probe closes it', async (t) => {
    // Calls that get no answer time out after 1.5 s (the forge hangs them).
    const { forge, apps, clients, clock } = await setup(t, 1_500);
    forge.hangNext('apps/get-repo-installation', 3);
    for (const repo of ['acme/a', 'acme/b', 'acme/c']) await assert.rejects(apps.installationFor(repo), { code: 'forge_unavailable', message: /unreachable \(GET \/repos\/acme\/.\/installation as App 101: / });
    const asked = forge.count();
    await assert.rejects(apps.installationToken('acme/d', {}), { code: 'forge_unavailable', status: 503, message: /circuit breaker open: 3 consecutive failures.*svc tries it again in 30 s/ });
    assert.equal(forge.count(), asked, 'the forge was not called');
    assert.equal(clients.forApi().available(), false);
    const [warning] = forgeWarnings(clients, clock.now());
    assert.equal(warning?.code, 'forge_unavailable');
    assert.match(warning?.message ?? '', /circuit breaker open.*tries it again in 30 s/);
    clock.advance(30_000);
    assert.equal(clients.forApi().available(), true);
    assert.deepEqual(await apps.installationFor('acme/app'), { appId: 101, installationId: 1001 });
    assert.equal(clients.forApi().breaker().state, 'closed');
    assert.deepEqual(forgeWarnings(clients, clock.now()), []);
  });
});
