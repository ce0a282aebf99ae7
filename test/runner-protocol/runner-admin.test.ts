/**
 * The official runner's runner-admin ("v2") configure sequence against svc (RUNNER-PROTOCOL.md
 * §1.7, §1.8, §1.11): with SVC_RUNNER_FLOW=broker, runner-registration answers `use_v2_flow: true`
 * and the runner goes runner-groups → runners?name= → runners/register, then fetches an OAuth token
 * with its client assertion and opens a broker session. Replace, name conflicts and removal.
 */
import assert from 'node:assert/strict';
import { describe, it, type TestContext } from 'node:test';
import { newRunnerKey, ScriptedRunner, ConfigureError, type RunnerConfig } from './scripted-runner.js';
import { RunnerAdminClient, xmlPublicKey } from './runner-admin-client.js';
import { RUNNER_BACKENDS, runnerHost, type RunnerHost, type StoreKind } from './runner-host.js';
import { ScriptedBroker } from './scripted-broker.js';

function brokerHost(t: TestContext, kind: StoreKind): Promise<RunnerHost> {
  return runnerHost(t, { kind, env: { SVC_RUNNER_FLOW: 'broker' } });
}

function scripted(h: RunnerHost, name: string, url = `${h.baseUrl}/acme/widgets`): ScriptedRunner {
  return new ScriptedRunner({ url, token: h.systemToken, name, clock: h.clock });
}

async function listed(h: RunnerHost, name: string): Promise<Record<string, unknown>[]> {
  const result = await new RunnerAdminClient([], `${h.baseUrl}/acme/widgets`, h.systemToken).runnersByName(name);
  assert.equal(result.status, 200);
  const body = result.body as { total_count: number; runners: Record<string, unknown>[] };
  assert.equal(body.total_count, body.runners.length);
  return body.runners;
}

async function tokenStatus(runner: ScriptedRunner, config: RunnerConfig): Promise<{ status: number; error: unknown }> {
  const result = await runner.requestToken(config);
  return { status: result.status, error: (result.body as { error?: unknown }).error };
}

for (const backend of RUNNER_BACKENDS) {
  describe(`the official runner's runner-admin configure sequence (${backend.kind})`, { skip: backend.skip }, () => {
    it('runner-groups, runners?name, register, then an OAuth token and a broker session', async (t) => {
      const h = await brokerHost(t, backend.kind);
      const runner = scripted(h, 'build-01');
      const config = await runner.configure({ labels: ['gpu'] });

      assert.deepEqual(runner.calls, [
        'POST /api/v3/actions/runner-registration 200',
        'GET /api/v3/repos/acme/widgets/actions/runner-groups 200',
        'GET /api/v3/repos/acme/widgets/actions/runners 200',
        'POST /api/v3/actions/runners/register 201',
      ]);
      assert.deepEqual(
        { ...config.settings, agentId: typeof config.settings.agentId },
        {
          agentId: 'number',
          agentName: 'build-01',
          poolId: 1,
          poolName: 'Default',
          serverUrl: `${h.baseUrl}/`,
          gitHubUrl: `${h.baseUrl}/acme/widgets`,
          ephemeral: false,
          useV2Flow: true,
          serverUrlV2: `${h.baseUrl}/broker/`,
          useRunnerAdminFlow: true,
        },
      );
      assert.equal(config.credentials.authorizationUrl, `${h.baseUrl}/_apis/oauth2/token`);
      assert.equal(config.credentials.requireFipsCryptography, true, 'the runner signs with PS256 on this path');

      // `run`: the broker session fetches the runner's token with a PS256 client assertion.
      const broker = new ScriptedBroker(runner, config, config.settings.serverUrlV2 ?? '');
      assert.equal((await broker.createSession()).status, 200);
      assert.deepEqual(runner.calls.slice(4), ['POST /broker/session 401', 'POST /_apis/oauth2/token 200', 'POST /broker/session 200']);
      assert.equal((await broker.deleteSession()).status, 204);

      const [shown] = await listed(h, 'BUILD-01');
      assert.deepEqual(shown, {
        id: config.settings.agentId,
        name: 'build-01',
        os: 'linux',
        status: 'offline',
        busy: false,
        ephemeral: false,
        runner_group_id: 1,
        runner_group_name: 'Default',
        labels: [
          { id: 1, name: 'self-hosted', type: 'read-only' },
          { id: 2, name: 'Linux', type: 'read-only' },
          { id: 3, name: 'X64', type: 'read-only' },
          { id: 4, name: 'gpu', type: 'custom' },
        ],
      });
      assert.deepEqual(await listed(h, 'build-02'), [], 'the name filter is exact');
    });

    it('configures organisation and enterprise runners, ephemeral ones echoed', async (t) => {
      const h = await brokerHost(t, backend.kind);
      const org = scripted(h, 'org-01', `${h.baseUrl}/acme`);
      const orgConfig = await org.configure({ ephemeral: true, disableUpdate: true });
      assert.equal(org.calls[1], 'GET /api/v3/orgs/acme/actions/runner-groups 200');
      const enterprise = scripted(h, 'ent-01', `${h.baseUrl}/enterprises/acme`);
      await enterprise.configure();
      assert.equal(enterprise.calls[2], 'GET /api/v3/enterprises/acme/actions/runners 200');
      const [shown] = await listed(h, 'org-01');
      assert.equal(shown?.['ephemeral'], true);
      assert.equal(shown?.['id'], orgConfig.settings.agentId);
      assert.equal((await tokenStatus(org, orgConfig)).status, 200);
    });

    it('replaces with runner_id and replace: the id stays, the old credential dies', async (t) => {
      const h = await brokerHost(t, backend.kind);
      const first = scripted(h, 'build-01');
      const original = await first.configure();

      // Unattended without --replace: the runner stops at the name lookup...
      const again = scripted(h, 'build-01');
      await assert.rejects(again.configure(), (error: unknown) => error instanceof ConfigureError && /A runner exists with the same name build-01/.test(error.message));
      // ...and a registration of a taken name is refused by the server with the spec's message.
      const admin = new RunnerAdminClient([], `${h.baseUrl}/acme/widgets`, h.systemToken);
      const clash = await admin.register({
        url: `${h.baseUrl}/acme/widgets`,
        group_id: 1,
        name: 'BUILD-01',
        version: '2.337.0',
        updates_disabled: false,
        ephemeral: false,
        labels: [],
        public_key: xmlPublicKey(newRunnerKey()),
      });
      assert.equal(clash.status, 409);
      assert.deepEqual(clash.body, { code: 'runner_exists', message: "Runner 'build-01' already exists" });

      const replaced = await again.configure({ replace: true, labels: ['arm'] });
      assert.equal(again.calls.at(-1), 'POST /api/v3/actions/runners/register 200');
      assert.equal(replaced.settings.agentId, original.settings.agentId, 'the runner keeps its id');
      assert.notEqual(replaced.credentials.clientId, original.credentials.clientId, 'a new client id');
      assert.deepEqual(await tokenStatus(first, original), { status: 400, error: 'invalid_client' });
      assert.equal((await tokenStatus(again, replaced)).status, 200);
      const [shown] = await listed(h, 'build-01');
      assert.deepEqual((shown?.['labels'] as { name: string }[]).map((label) => label.name), ['self-hosted', 'Linux', 'X64', 'arm']);

      const missing = await admin.register({
        url: `${h.baseUrl}/acme/widgets`,
        group_id: 1,
        name: 'ghost',
        version: '2.337.0',
        updates_disabled: false,
        ephemeral: false,
        labels: [],
        public_key: xmlPublicKey(newRunnerKey()),
        runner_id: 4242,
        replace: true,
      });
      assert.equal(missing.status, 404);
      assert.deepEqual(missing.body, { code: 'runner_not_found', message: 'No runner with id 4242 is registered' });
    });

    it('removes with DELETE {entity}/runners/<id>', async (t) => {
      const h = await brokerHost(t, backend.kind);
      const runner = scripted(h, 'build-01');
      const config = await runner.configure();
      await runner.remove(h.systemToken, config);
      assert.equal(runner.calls.at(-1), `DELETE /api/v3/repos/acme/widgets/actions/runners/${config.settings.agentId} 204`);
      assert.deepEqual(await listed(h, 'build-01'), []);
      assert.deepEqual(await tokenStatus(runner, config), { status: 400, error: 'invalid_client' }, 'the runner learns its registration is gone');
      const twice = await new RunnerAdminClient([], `${h.baseUrl}/acme/widgets`, h.systemToken).deleteRunner(config.settings.agentId);
      assert.equal(twice.status, 404, 'the runner stops retrying on 404');
      await runner.configure();
      assert.equal((await listed(h, 'build-01')).length, 1, 'the name is free again');
    });

    it('keeps the legacy path working: the agents resource answers UseV2Flow, and legacy removal still works', async (t) => {
      const h = await brokerHost(t, backend.kind);
      const runner = scripted(h, 'legacy-01');
      const config = await runner.configure({ legacyPath: true });
      assert.equal(config.settings.useV2Flow, true);
      assert.equal(config.settings.serverUrlV2, `${h.baseUrl}/broker/`);
      assert.equal(config.settings.useRunnerAdminFlow, undefined);
      assert.ok(!runner.calls.includes('GET /_apis/distributedtask/pools 401'), 'a V2 runner skips the connection test');
      const broker = new ScriptedBroker(runner, config, `${h.baseUrl}/broker/`);
      assert.equal((await broker.createSession()).status, 200);
      assert.equal((await broker.deleteSession()).status, 204);
      // config.sh remove of a runner configured on the legacy path: registration (remove) → agents.
      await runner.remove();
      assert.deepEqual(await listed(h, 'legacy-01'), []);
    });
  });
}
