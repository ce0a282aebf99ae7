import assert from 'node:assert/strict';
import { describe, it, type TestContext } from 'node:test';
import Fastify from 'fastify';
import { createMemoryCredentialStore } from '../../backends/credentials/index.js';
import { createSqliteStore } from '../../backends/sqlite/index.js';
import { createSilentLogger, localSharedKeys, randomIds, type SystemAuth } from '../../core/kernel/index.js';
import { createRunnerProtocolServices, requireRunnerToken, runnerOf, runnerProtocolMigrations, type RunnerProtocolServices } from '../../plugins/runner-protocol/index.js';
import { ManualClock } from '../support/manual-clock.js';
import { onCleanup, tempDir } from '../support/services.js';
import { newRunnerKey, publicKeyWire } from './scripted-runner.js';

const noSystemAuth: SystemAuth = { verifyHeader: () => false };

async function services(t: TestContext): Promise<{ services: RunnerProtocolServices; clock: ManualClock }> {
  const clock = new ManualClock(Date.UTC(2030, 0, 1));
  const store = await createSqliteStore({ logger: createSilentLogger(), clock, dataDir: await tempDir(t) });
  onCleanup(t, () => store.database.close());
  const report = await store.migrator.migrate('runner-protocol', runnerProtocolMigrations);
  if (report.error) throw report.error;
  const built = await createRunnerProtocolServices({
    database: store.database,
    engine: { getJob: async () => undefined },
    clock,
    ids: randomIds,
    sharedKeys: localSharedKeys(createMemoryCredentialStore()),
    systemAuth: noSystemAuth,
    policy: 'strict',
    publicUrl: undefined,
    runnerVersion: '2.337.0',
  });
  return { services: built, clock };
}

function agentBody(name: string) {
  const key = newRunnerKey();
  return { name, version: '2.337.0', osDescription: 'Linux', labels: [{ name: 'self-hosted', type: 'system' as const }], publicKey: publicKeyWire(key), ephemeral: false, disableUpdate: false };
}

describe('requireRunnerToken (for session, message and broker routes)', () => {
  it('admits a current runner access token and challenges everything else', async (t) => {
    const { services: s, clock } = await services(t);
    const registered = await s.registry.register({ poolId: 1, agent: agentBody('build-01'), scopeUrl: 'http://127.0.0.1:9090/acme/widgets', authorizationUrl: 'http://127.0.0.1:9090/_apis/oauth2/token' });
    const app = Fastify();
    onCleanup(t, () => app.close());
    await app.register(async (scoped) => {
      scoped.addHook('onRequest', requireRunnerToken(s.runnerAuth));
      scoped.get('/_apis/distributedtask/pools/:poolId/sessions', async (request) => ({ runner: runnerOf(request).name, id: runnerOf(request).id }));
    });
    const call = (authorization?: string) =>
      app.inject({ method: 'GET', url: '/_apis/distributedtask/pools/1/sessions', headers: authorization === undefined ? {} : { authorization } });

    const { token } = await s.tokens.issueAccessToken(registered);
    const ok = await call(`Bearer ${token}`);
    assert.equal(ok.statusCode, 200);
    assert.deepEqual(ok.json(), { runner: 'build-01', id: registered.id });

    const anonymous = await call();
    assert.equal(anonymous.statusCode, 401);
    assert.equal(anonymous.headers['www-authenticate'], 'Bearer');
    assert.match(String(anonymous.headers['content-type']), /^application\/json/);
    assert.equal(anonymous.json().typeKey, 'VssUnauthorizedException');

    const tenant = await s.tokens.issueTenantToken({ scopeUrl: 'http://127.0.0.1:9090/acme/widgets', event: 'register' });
    assert.equal((await call(`Bearer ${tenant.token}`)).statusCode, 401, 'a registration token is no runner token');
    assert.equal((await call(`Basic ${Buffer.from(`x:${token}`).toString('base64')}`)).statusCode, 401);

    clock.advance(3601_000);
    assert.equal((await call(`Bearer ${token}`)).statusCode, 401, 'expired');
    const fresh = await s.tokens.issueAccessToken(registered);
    assert.equal((await call(`Bearer ${fresh.token}`)).statusCode, 200);

    await s.registry.replace(registered.id, { poolId: 0, agent: agentBody('build-01'), scopeUrl: null, authorizationUrl: registered.authorizationUrl });
    assert.equal((await call(`Bearer ${fresh.token}`)).statusCode, 401, 'a replaced registration retires its tokens');
    const replaced = await s.agents.get(registered.id);
    assert.ok(replaced);
    const afterReplace = await s.tokens.issueAccessToken(replaced);
    assert.equal((await call(`Bearer ${afterReplace.token}`)).statusCode, 200);
    await s.registry.remove(registered.id);
    assert.equal((await call(`Bearer ${afterReplace.token}`)).statusCode, 401, 'a removed runner is refused');
  });

  it('keeps its signing key in the credential store across restarts', async (t) => {
    const clock = new ManualClock();
    const store = await createSqliteStore({ logger: createSilentLogger(), clock, dataDir: await tempDir(t) });
    onCleanup(t, () => store.database.close());
    await store.migrator.migrate('runner-protocol', runnerProtocolMigrations);
    const credentials = createMemoryCredentialStore();
    const inputs = { database: store.database, engine: { getJob: async () => undefined }, clock, ids: randomIds, sharedKeys: localSharedKeys(credentials), systemAuth: noSystemAuth, policy: 'strict' as const, publicUrl: undefined, runnerVersion: '2.337.0' };
    const first = await createRunnerProtocolServices(inputs);
    const pem = await credentials.get('runner-protocol-signing-key');
    assert.match(pem ?? '', /^-----BEGIN PRIVATE KEY-----/);
    const second = await createRunnerProtocolServices(inputs);
    assert.equal(await credentials.get('runner-protocol-signing-key'), pem, 'generated once');
    const issued = await first.tokens.issueTenantToken({ scopeUrl: 'http://h/o/r', event: 'remove' });
    assert.deepEqual(await second.tokens.verifyTenantToken(issued.token), { scopeUrl: 'http://h/o/r', event: 'remove' });
  });
});
