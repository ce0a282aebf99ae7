import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { runnerHost, RUNNER_BACKENDS } from './runner-host.js';
import { LOCATION, ScriptedRunner } from './scripted-runner.js';
import { unwrap } from './vss-client.js';

for (const backend of RUNNER_BACKENDS) {
  describe(`the official runner's configure sequence (${backend.kind})`, { skip: backend.skip }, () => {
    it('registers, tests its connection with an exchanged token, and is listed', async (t) => {
      const server = await runnerHost(t, { kind: backend.kind });
      const runner = new ScriptedRunner({ url: `${server.baseUrl}/acme/widgets`, token: server.systemToken, name: 'build-01', clock: server.clock });

      const config = await runner.configure({ labels: ['gpu'] });

      assert.deepEqual(runner.calls, [
        'POST /api/v3/actions/runner-registration 200',
        'GET /_apis/connectionData 200',
        'GET /_apis/distributedtask/pools 200',
        'GET /_apis/distributedtask/pools/0/agents 200',
        `POST /_apis/distributedtask/pools/1/agents 200`,
        'GET /_apis/connectionData 200',
        'GET /_apis/distributedtask/pools 401',
        'POST /_apis/oauth2/token 200',
        'GET /_apis/distributedtask/pools 200',
      ]);
      assert.deepEqual(
        { ...config.settings, agentId: typeof config.settings.agentId },
        {
          agentId: 'number',
          agentName: 'build-01',
          poolId: 1,
          poolName: 'Default',
          serverUrl: `${server.baseUrl}/`,
          gitHubUrl: `${server.baseUrl}/acme/widgets`,
          ephemeral: false,
          useV2Flow: false,
          serverUrlV2: `${server.baseUrl}/broker/`,
        },
      );
      assert.match(config.credentials.clientId, /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
      assert.equal(config.credentials.authorizationUrl, `${server.baseUrl}/_apis/oauth2/token`);
      assert.equal(config.credentials.requireFipsCryptography, false, 'RS256: every runner version can sign it');

      // Another configure session looks the runner up by name, any casing, in all groups.
      const tenant = await runner.registration('register');
      const locations = await runner.connectionData(tenant.tenantUrl);
      const found = await runner.call(locations, tenant.tenantUrl, { method: 'GET', location: LOCATION.agents, route: { poolId: 0 }, query: { agentName: 'BUILD-01' }, bearer: tenant.token });
      const [agent] = unwrap<Record<string, unknown>>(found.body);
      assert.ok(agent);
      assert.equal(agent['id'], config.settings.agentId);
      assert.equal(agent['name'], 'build-01');
      assert.equal(agent['version'], '2.337.0');
      assert.equal(agent['osDescription'], 'Ubuntu 24.04.1 LTS');
      assert.equal(agent['status'], 'offline');
      assert.deepEqual(agent['labels'], [
        { id: 1, name: 'self-hosted', type: 'system' },
        { id: 2, name: 'Linux', type: 'system' },
        { id: 3, name: 'X64', type: 'system' },
        { id: 4, name: 'gpu', type: 'user' },
      ]);
      assert.deepEqual(agent['properties'], { RequireFipsCryptography: false, UseV2Flow: false, ServerUrlV2: `${server.baseUrl}/broker/` });
    });
  });
}
