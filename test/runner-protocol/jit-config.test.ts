import assert from 'node:assert/strict';
import { createPrivateKey } from 'node:crypto';
import { describe, it } from 'node:test';
import { runnerHost } from './runner-host.js';
import { LOCATION, ScriptedRunner, type RunnerConfig } from './scripted-runner.js';
import { send, unwrap } from './vss-client.js';

interface JitAnswer {
  runner: { id: number; name: string; ephemeral: boolean; runner_group_id: number; runner_group_name: string; labels: { name: string; type: string }[] };
  encoded_jit_config: string;
}

function decodeBlob(blob: string): Record<string, string> {
  const outer = JSON.parse(Buffer.from(blob, 'base64').toString('utf8')) as Record<string, string>;
  return Object.fromEntries(Object.entries(outer).map(([name, content]) => [name, Buffer.from(content, 'base64').toString('utf8')]));
}

describe('JIT configuration (run --jitconfig)', () => {
  it('mints an ephemeral runner of the built-in pool whose blob holds the three root files', async (t) => {
    const server = await runnerHost(t);
    const jit = (body: unknown, authorization = `Bearer ${server.systemToken}`) =>
      send([], 'POST', `${server.baseUrl}/api/v1/runners/generate-jitconfig`, { headers: { authorization }, json: body });

    const created = await jit({ name: 'guest-1', labels: ['self-hosted', 'Linux', 'X64', 'svc-builtin'] });
    assert.equal(created.status, 201, JSON.stringify(created.body));
    const answer = created.body as JitAnswer;
    assert.equal(answer.runner.name, 'guest-1');
    assert.equal(answer.runner.ephemeral, true);
    assert.equal(answer.runner.runner_group_id, 2);
    assert.deepEqual(answer.runner.labels.map((l) => `${l.name}:${l.type}`), ['self-hosted:read-only', 'Linux:read-only', 'X64:read-only', 'svc-builtin:custom']);

    const files = decodeBlob(answer.encoded_jit_config);
    assert.deepEqual(Object.keys(files).sort(), ['.credentials', '.credentials_rsaparams', '.runner']);
    const runnerFile = JSON.parse(files['.runner'] ?? '') as Record<string, unknown>;
    assert.deepEqual(runnerFile, {
      agentId: answer.runner.id,
      agentName: 'guest-1',
      poolId: 2,
      poolName: 'Built-in',
      serverUrl: `${server.baseUrl}/`,
      gitHubUrl: server.baseUrl,
      workFolder: '_work',
      isHostedServer: false,
      ephemeral: true,
      disableUpdate: true,
      serverUrlV2: `${server.baseUrl}/broker/`,
    });
    const credentials = JSON.parse(files['.credentials'] ?? '') as { scheme: string; data: Record<string, string> };
    assert.equal(credentials.scheme, 'OAuth');
    assert.equal(credentials.data['authorizationUrl'], `${server.baseUrl}/_apis/oauth2/token`);
    assert.equal(credentials.data['requireFipsCryptography'], 'False');
    const params = JSON.parse(files['.credentials_rsaparams'] ?? '') as Record<string, string>;
    assert.deepEqual(Object.keys(params), ['d', 'dp', 'dq', 'exponent', 'inverseQ', 'modulus', 'p', 'q']);
    const width = (name: string) => Buffer.from(params[name] ?? '', 'base64').length;
    assert.deepEqual([width('modulus'), width('d'), width('p'), width('q'), width('dp'), width('dq'), width('inverseQ'), width('exponent')], [256, 256, 128, 128, 128, 128, 128, 3], '.NET RSAParameters widths');

    // The runner starts from those files alone: its key signs the assertion, the token works.
    const b64url = (name: string) => Buffer.from(params[name] ?? '', 'base64').toString('base64url');
    const key = createPrivateKey({
      key: { kty: 'RSA', n: b64url('modulus'), e: b64url('exponent'), d: b64url('d'), p: b64url('p'), q: b64url('q'), dp: b64url('dp'), dq: b64url('dq'), qi: b64url('inverseQ') },
      format: 'jwk',
    });
    const runner = new ScriptedRunner({ url: String(runnerFile['gitHubUrl']), token: '', name: 'guest-1', clock: server.clock });
    const config: RunnerConfig = {
      settings: {
        agentId: answer.runner.id,
        agentName: 'guest-1',
        poolId: 2,
        poolName: 'Built-in',
        serverUrl: String(runnerFile['serverUrl']),
        gitHubUrl: String(runnerFile['gitHubUrl']),
        ephemeral: true,
        useV2Flow: false,
        serverUrlV2: undefined,
      },
      credentials: { clientId: credentials.data['clientId'] ?? '', authorizationUrl: credentials.data['authorizationUrl'] ?? '', requireFipsCryptography: false },
      key,
    };
    const accessToken = await runner.testConnection(config);
    const locations = await runner.connectionData(config.settings.serverUrl);
    const listed = unwrap<{ id: number; ephemeral: boolean }>(
      (await runner.call(locations, config.settings.serverUrl, { method: 'GET', location: LOCATION.agents, route: { poolId: 2 }, bearer: accessToken })).body,
    );
    assert.deepEqual(listed.map((a) => [a.id, a.ephemeral]), [[answer.runner.id, true]]);

    const clash = await jit({ name: 'GUEST-1' });
    assert.equal(clash.status, 409);
    assert.deepEqual(clash.body, { code: 'runner_exists', message: "Runner 'guest-1' already exists" });
    assert.equal((await jit({ name: 'guest-2' }, 'Bearer wrong-token-0123456789')).status, 401);
    assert.equal((await jit({ name: '' })).status, 400);
    assert.equal((await jit({ name: 'guest-3', runner_group_id: 99 })).status, 404);
  });

  it('can put a JIT runner in the Default group with a forge scope and work folder', async (t) => {
    const server = await runnerHost(t);
    const created = await send([], 'POST', `${server.baseUrl}/api/v1/runners/generate-jitconfig`, {
      headers: { authorization: `Bearer ${server.systemToken}` },
      json: { name: 'ext-1', runner_group_id: 1, work_folder: '/srv/work', url: `${server.baseUrl}/acme/widgets/` },
    });
    assert.equal(created.status, 201);
    const answer = created.body as JitAnswer;
    assert.equal(answer.runner.runner_group_name, 'Default');
    const runnerFile = JSON.parse(decodeBlob(answer.encoded_jit_config)['.runner'] ?? '') as Record<string, unknown>;
    assert.equal(runnerFile['gitHubUrl'], `${server.baseUrl}/acme/widgets`);
    assert.equal(runnerFile['workFolder'], '/srv/work');
    assert.equal(runnerFile['poolName'], 'Default');
  });
});
