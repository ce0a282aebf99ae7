import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { defaultCatalog } from '../../builtins/index.js';
import { createHost, createSilentLogger } from '../../core/kernel/index.js';
import { createHostEnv } from '../support/host-env.js';
import { runnerHost, RUNNER_BACKENDS } from './runner-host.js';
import { ConfigureError, LOCATION, newRunnerKey, publicKeyWire, ScriptedRunner } from './scripted-runner.js';
import { send, unwrap } from './vss-client.js';

const WRAPPED = ', GitHub.DistributedTask.WebApi, Version=14.0.0.0, Culture=neutral, PublicKeyToken=b03f5f7f11d50a3a';

async function register(baseUrl: string, authorization: string | undefined, url = `${baseUrl}/acme/widgets`) {
  return send([], 'POST', `${baseUrl}/api/v3/actions/runner-registration`, {
    headers: authorization === undefined ? {} : { authorization },
    json: { url, runner_event: 'register' },
  });
}

describe('runner registration policy', () => {
  it('strict (the default) takes only the system token as the RemoteAuth registration token', async (t) => {
    const server = await runnerHost(t);
    const ok = await register(server.baseUrl, `RemoteAuth ${server.systemToken}`);
    assert.equal(ok.status, 200);
    assert.deepEqual(Object.keys(ok.body as object).sort(), ['token', 'token_schema', 'url', 'use_v2_flow']);

    const wrong = await register(server.baseUrl, 'RemoteAuth AABBCCDDEEFF0011223344');
    assert.equal(wrong.status, 401);
    assert.match((wrong.body as { message: string }).message, /--token <system token>/);
    assert.equal((await register(server.baseUrl, undefined)).status, 401);
    assert.equal((await register(server.baseUrl, `Bearer ${server.systemToken}`)).status, 401, 'the runner sends RemoteAuth');
    assert.equal((await register(server.baseUrl, `remoteauth ${server.systemToken}`)).status, 200, 'the scheme is case-insensitive');

    // The whole configure with a forge-style registration token fails at the first call.
    const runner = new ScriptedRunner({ url: `${server.baseUrl}/acme/widgets`, token: 'AAAAREGISTRATIONTOKEN', name: 'r1', clock: server.clock });
    await assert.rejects(runner.configure(), (error: unknown) => error instanceof ConfigureError && error.result?.status === 401);
  });

  it('permissive takes any non-empty credential on a loopback listener', async (t) => {
    const server = await runnerHost(t, { env: { SVC_REGISTRATION_POLICY: 'permissive' } });
    assert.equal((await register(server.baseUrl, 'RemoteAuth anything-at-all')).status, 200);
    assert.equal((await register(server.baseUrl, 'RemoteAuth ')).status, 401, 'an empty credential is still refused');
    assert.equal((await register(server.baseUrl, undefined)).status, 401);
    const runner = new ScriptedRunner({ url: `${server.baseUrl}/acme/widgets`, token: 'AAAAREGISTRATIONTOKEN', name: 'r1', clock: server.clock });
    const config = await runner.configure();
    assert.equal(config.settings.agentName, 'r1');
  });

  it('permissive on a non-loopback listener stops the start', async () => {
    const hostEnv = createHostEnv({ SVC_REGISTRATION_POLICY: 'permissive', SVC_LISTEN: '0.0.0.0:0' });
    try {
      hostEnv.writePlugins('[[plugin]]\nid = "runner-protocol"\n');
      await assert.rejects(createHost({ env: hostEnv.env, cwd: hostEnv.dir, logger: createSilentLogger(), catalog: defaultCatalog }), /SVC_REGISTRATION_POLICY=permissive is only allowed on a loopback listener/);
    } finally {
      hostEnv.cleanup();
    }
  });

  it('refuses a --url that names no owner, and a tenant the runner would reject', async (t) => {
    const server = await runnerHost(t);
    const auth = `RemoteAuth ${server.systemToken}`;
    const bare = await register(server.baseUrl, auth, server.baseUrl);
    assert.equal(bare.status, 400);
    assert.match((bare.body as { message: string }).message, /must name an owner or a repository/);
    assert.equal((await register(server.baseUrl, auth, `${server.baseUrl}/acme`)).status, 200, 'an organisation runner');
    assert.equal((await register(server.baseUrl, auth, `${server.baseUrl}/enterprises/acme`)).status, 200, 'an enterprise runner');

    const published = await runnerHost(t, { env: { SVC_PUBLIC_URL: 'http://ci.example.test:9090' } });
    const mismatch = await register(published.baseUrl, `RemoteAuth ${published.systemToken}`);
    assert.equal(mismatch.status, 400, 'the runner rejects a tenant on another authority, so we say why first');
    assert.match((mismatch.body as { message: string }).message, /--url http:\/\/ci\.example\.test:9090/);
    const subdomain = await register(published.baseUrl, `RemoteAuth ${published.systemToken}`, 'http://example.test:9090/acme/widgets');
    assert.equal(subdomain.status, 200);
    assert.equal((subdomain.body as { url: string }).url, 'http://ci.example.test:9090/', 'SVC_PUBLIC_URL builds the tenant URL');
  });
});

for (const backend of RUNNER_BACKENDS) {
  describe(`runner names, replace and removal (${backend.kind})`, { skip: backend.skip }, () => {
    it('a second runner of the same name fails without --replace, in the runner and at the server', async (t) => {
      const server = await runnerHost(t, { kind: backend.kind });
      const url = `${server.baseUrl}/acme/widgets`;
      await new ScriptedRunner({ url, token: server.systemToken, name: 'build-01', clock: server.clock }).configure();

      const second = new ScriptedRunner({ url, token: server.systemToken, name: 'build-01', clock: server.clock });
      await assert.rejects(second.configure(), /A runner exists with the same name build-01/);

      // A client that skips the lookup (or loses a race) gets the spec's message from the server.
      const tenant = await second.registration('register');
      const locations = await second.connectionData(tenant.tenantUrl);
      const clash = await second.call(locations, tenant.tenantUrl, {
        method: 'POST',
        location: LOCATION.agents,
        route: { poolId: 1 },
        json: { name: 'BUILD-01', version: '2.337.0', authorization: { publicKey: publicKeyWire(newRunnerKey()) }, labels: [] },
        bearer: tenant.token,
      });
      assert.equal(clash.status, 409);
      const body = clash.body as Record<string, unknown>;
      assert.equal(body['message'], "Runner 'build-01' already exists");
      assert.equal(body['typeKey'], 'TaskAgentExistsException');
      assert.equal(body['typeName'], `GitHub.DistributedTask.WebApi.TaskAgentExistsException${WRAPPED}`);
      assert.equal(body['innerException'], null);
    });

    it('--replace keeps the id, takes the new key and labels, and retires the old credentials', async (t) => {
      const server = await runnerHost(t, { kind: backend.kind });
      const url = `${server.baseUrl}/acme/widgets`;
      const first = new ScriptedRunner({ url, token: server.systemToken, name: 'build-01', clock: server.clock });
      const old = await first.configure({ labels: ['old'] });
      const oldToken = await first.accessToken(old);

      const second = new ScriptedRunner({ url, token: server.systemToken, name: 'build-01', clock: server.clock });
      const replaced = await second.configure({ replace: true, labels: ['new'], ephemeral: true, disableUpdate: true });
      assert.equal(replaced.settings.agentId, old.settings.agentId);
      assert.notEqual(replaced.credentials.clientId, old.credentials.clientId, 'a new OAuth client id');
      assert.ok(second.calls.includes(`PUT /_apis/distributedtask/pools/1/agents/${old.settings.agentId} 200`), second.calls.join('\n'));
      assert.equal(replaced.settings.ephemeral, true);

      const tenant = await second.registration('register');
      const locations = await second.connectionData(tenant.tenantUrl);
      const listed = unwrap<{ labels: { name: string }[]; ephemeral: boolean; disableUpdate: boolean }>(
        (await second.call(locations, tenant.tenantUrl, { method: 'GET', location: LOCATION.agents, route: { poolId: 0 }, query: { agentName: 'build-01' }, bearer: tenant.token })).body,
      );
      assert.equal(listed.length, 1);
      assert.deepEqual(listed[0]?.labels.map((label) => label.name), ['self-hosted', 'Linux', 'X64', 'new']);
      assert.equal(listed[0]?.ephemeral, true);
      assert.equal(listed[0]?.disableUpdate, true);

      // The replaced runner's token and key no longer work; it is told its registration is gone.
      const withOld = await first.call(locations, tenant.tenantUrl, { method: 'GET', location: LOCATION.pools, bearer: oldToken });
      assert.equal(withOld.status, 401);
      assert.match(withOld.headers.get('www-authenticate') ?? '', /Bearer/);
      const exchange = await first.requestToken(old);
      assert.equal(exchange.status, 400);
      assert.equal((exchange.body as { error: string }).error, 'invalid_client');
    });

    it('config.sh remove deletes the registration; its token stops working', async (t) => {
      const server = await runnerHost(t, { kind: backend.kind });
      const runner = new ScriptedRunner({ url: `${server.baseUrl}/acme/widgets`, token: server.systemToken, name: 'build-01', clock: server.clock });
      const config = await runner.configure();
      const accessToken = await runner.accessToken(config);

      runner.calls.length = 0;
      await runner.remove();
      assert.deepEqual(runner.calls, [
        'POST /api/v3/actions/runner-registration 200',
        'GET /_apis/connectionData 200',
        'GET /_apis/distributedtask/pools/0/agents 200',
        `DELETE /_apis/distributedtask/pools/0/agents/${config.settings.agentId} 204`,
      ]);

      const tenant = await runner.registration('register');
      const locations = await runner.connectionData(tenant.tenantUrl);
      const lookup = await runner.call(locations, tenant.tenantUrl, { method: 'GET', location: LOCATION.agents, route: { poolId: 0 }, query: { agentName: 'build-01' }, bearer: tenant.token });
      assert.deepEqual(unwrap(lookup.body), []);
      const again = await runner.call(locations, tenant.tenantUrl, { method: 'DELETE', location: LOCATION.agents, route: { poolId: 0, agentId: config.settings.agentId }, bearer: tenant.token });
      assert.equal(again.status, 404);
      assert.equal((again.body as { typeKey: string }).typeKey, 'TaskAgentNotFoundException');

      assert.equal((await runner.call(locations, tenant.tenantUrl, { method: 'GET', location: LOCATION.pools, bearer: accessToken })).status, 401);
      const exchange = await runner.requestToken(config);
      assert.equal(exchange.status, 400);
      assert.equal((exchange.body as { error: string }).error, 'invalid_client', 'the runner reads invalid_client as "registration deleted"');

      // The name is free again.
      await new ScriptedRunner({ url: `${server.baseUrl}/acme/widgets`, token: server.systemToken, name: 'build-01', clock: server.clock }).configure();
    });

    it('answers bad registrations with wrapped exceptions the runner prints', async (t) => {
      const server = await runnerHost(t, { kind: backend.kind });
      const runner = new ScriptedRunner({ url: `${server.baseUrl}/acme/widgets`, token: server.systemToken, name: 'build-01', clock: server.clock });
      const tenant = await runner.registration('register');
      const locations = await runner.connectionData(tenant.tenantUrl);
      const create = (poolId: number, json: unknown) => runner.call(locations, tenant.tenantUrl, { method: 'POST', location: LOCATION.agents, route: { poolId }, json, bearer: tenant.token });
      const agent = (name: string) => ({ name, version: '2.337.0', authorization: { publicKey: publicKeyWire(newRunnerKey()) }, labels: [] });
      const typeKey = (result: { body: unknown }) => (result.body as { typeKey: string }).typeKey;

      const noPool = await create(42, agent('r'));
      assert.equal(noPool.status, 404);
      assert.equal(typeKey(noPool), 'TaskAgentPoolNotFoundException');
      assert.equal((noPool.body as { typeName: string }).typeName, `GitHub.DistributedTask.WebApi.TaskAgentPoolNotFoundException${WRAPPED}`);
      const builtIn = await create(2, agent('r'));
      assert.equal(builtIn.status, 400);
      assert.match((builtIn.body as { message: string }).message, /built-in pool/);
      const noKey = await create(1, { name: 'r', labels: [] });
      assert.equal(noKey.status, 400);
      assert.equal(typeKey(noKey), 'VssServiceException');
      assert.equal((noKey.body as { typeName: string }).typeName, 'GitHub.Services.Common.VssServiceException, GitHub.Services.Common, Version=14.0.0.0, Culture=neutral, PublicKeyToken=b03f5f7f11d50a3a');
      assert.match((noKey.body as { message: string }).message, /publicKey is missing/);
      const badParams = await send([], 'GET', `${server.baseUrl}/_apis/distributedtask/pools/abc/agents`, { headers: { authorization: `Bearer ${tenant.token}` } });
      assert.equal(badParams.status, 400);
      assert.equal(typeKey(badParams), 'VssServiceException');
      const unknown = await runner.call(locations, tenant.tenantUrl, { method: 'PUT', location: LOCATION.agents, route: { poolId: 1, agentId: 999 }, json: agent('r'), bearer: tenant.token });
      assert.equal(unknown.status, 404);
      assert.equal(typeKey(unknown), 'TaskAgentNotFoundException');

      // Pools count their runners.
      assert.equal((await create(1, agent('r1'))).status, 200);
      assert.equal((await create(1, agent('r2'))).status, 200);
      const pools = unwrap<{ id: number; name: string; size: number; isInternal: boolean; isHosted: boolean; poolType: string }>(
        (await runner.call(locations, tenant.tenantUrl, { method: 'GET', location: LOCATION.pools, query: { poolType: 'Automation' }, bearer: tenant.token })).body,
      );
      assert.deepEqual(pools.map((p) => [p.id, p.name, p.size, p.isInternal, p.isHosted, p.poolType]), [
        [1, 'Default', 2, true, false, 'automation'],
        [2, 'Built-in', 0, false, true, 'automation'],
      ]);
      const byName = await runner.call(locations, tenant.tenantUrl, { method: 'GET', location: LOCATION.pools, query: { poolName: 'default' }, bearer: tenant.token });
      assert.deepEqual(unwrap<{ id: number }>(byName.body).map((p) => p.id), [1]);
      const deployment = await runner.call(locations, tenant.tenantUrl, { method: 'GET', location: LOCATION.pools, query: { poolType: 'Deployment' }, bearer: tenant.token });
      assert.deepEqual(unwrap(deployment.body), []);
    });

    it('a runner token reads but cannot change registrations; anonymous calls get the Bearer challenge', async (t) => {
      const server = await runnerHost(t, { kind: backend.kind });
      const runner = new ScriptedRunner({ url: `${server.baseUrl}/acme/widgets`, token: server.systemToken, name: 'build-01', clock: server.clock });
      const config = await runner.configure();
      const accessToken = await runner.accessToken(config);
      const locations = await runner.connectionData(config.settings.serverUrl);
      const tenant = config.settings.serverUrl;

      const listed = await runner.call(locations, tenant, { method: 'GET', location: LOCATION.agents, route: { poolId: 1 }, bearer: accessToken });
      assert.equal(listed.status, 200);
      const removal = await runner.call(locations, tenant, { method: 'DELETE', location: LOCATION.agents, route: { poolId: 1, agentId: config.settings.agentId }, bearer: accessToken });
      assert.equal(removal.status, 403);
      assert.equal((removal.body as { typeKey: string }).typeKey, 'VssServiceException');

      const anonymous = await runner.call(locations, tenant, { method: 'GET', location: LOCATION.agents, route: { poolId: 0 }, query: { agentName: 'x' } });
      assert.equal(anonymous.status, 401);
      assert.equal(anonymous.headers.get('www-authenticate'), 'Bearer');
      const forged = await runner.call(locations, tenant, { method: 'GET', location: LOCATION.pools, bearer: 'eyJhbGciOiJub25lIn0.e30.' });
      assert.equal(forged.status, 401);
    });
  });
}
