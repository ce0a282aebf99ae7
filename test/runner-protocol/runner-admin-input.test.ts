/**
 * The runner-admin routes' edges (§1.7): the RemoteAuth registration credential like
 * runner-registration (strict: the system token), bad bodies and keys as 4xx with a message the
 * user can act on, and the switch: SVC_RUNNER_FLOW decides what runner-registration answers.
 */
import assert from 'node:assert/strict';
import { generateKeyPairSync } from 'node:crypto';
import { describe, it } from 'node:test';
import { runnerHost } from './runner-host.js';
import { newRunnerKey } from './scripted-runner.js';
import { RunnerAdminClient, xmlPublicKey, type RegisterRunnerBody } from './runner-admin-client.js';
import { send, type HttpResult } from './vss-client.js';

function body(baseUrl: string, overrides: Record<string, unknown> = {}): RegisterRunnerBody {
  return {
    url: `${baseUrl}/acme/widgets`,
    group_id: 1,
    name: 'build-01',
    version: '2.337.0',
    updates_disabled: false,
    ephemeral: false,
    labels: [{ id: 0, name: 'self-hosted', type: 'system' }],
    public_key: xmlPublicKey(newRunnerKey()),
    ...overrides,
  } as RegisterRunnerBody;
}

function message(result: HttpResult): string {
  return (result.body as { message?: string }).message ?? '';
}

describe('runner-admin routes', () => {
  it('take only the system token as RemoteAuth, on every route', async (t) => {
    const h = await runnerHost(t, { env: { SVC_RUNNER_FLOW: 'broker' } });
    const url = `${h.baseUrl}/acme/widgets`;
    const calls = (token: string) => {
      const admin = new RunnerAdminClient([], url, token);
      return [admin.runnerGroups(), admin.runnersByName('x'), admin.register(body(h.baseUrl)), admin.deleteRunner(1)];
    };
    for (const result of await Promise.all(calls('AAAAREGISTRATIONTOKEN'))) {
      assert.equal(result.status, 401);
      assert.deepEqual(result.body, {
        code: 'invalid_credential',
        message: 'the registration token is not valid for this server: configure the runner with --token <system token> (SVC_SYSTEM_TOKEN)',
      });
    }
    const bearer = await send([], 'GET', `${h.baseUrl}/api/v3/repos/acme/widgets/actions/runner-groups`, { headers: { authorization: `Bearer ${h.systemToken}` } });
    assert.equal(bearer.status, 401, 'the runner sends RemoteAuth');
    const none = await send([], 'GET', `${h.baseUrl}/api/v3/orgs/acme/actions/runner-groups`);
    assert.equal(none.status, 401);
    assert.equal((none.body as { code: string }).code, 'missing_credential');
    assert.equal((await send([], 'DELETE', `${h.baseUrl}/api/v3/repos/acme/widgets/actions/runners/1`)).status, 401, 'no removal without a credential');

    const groups = await new RunnerAdminClient([], url, h.systemToken).runnerGroups();
    assert.equal(groups.status, 200);
    assert.deepEqual(groups.body, {
      total_count: 2,
      runner_groups: [
        { id: 1, name: 'Default', default: true, is_hosted: false, visibility: 'all' },
        { id: 2, name: 'Built-in', default: false, is_hosted: true, visibility: 'all' },
      ],
    });
  });

  it('with SVC_REGISTRATION_POLICY=permissive take any non-empty credential on loopback TCP', async (t) => {
    const h = await runnerHost(t, { env: { SVC_REGISTRATION_POLICY: 'permissive' } });
    const admin = new RunnerAdminClient([], `${h.baseUrl}/acme/widgets`, 'anything-at-all');
    assert.equal((await admin.runnerGroups()).status, 200);
    assert.equal((await admin.register(body(h.baseUrl))).status, 201);
  });

  it('refuse a public key that is not the XML form of a usable RSA public key, saying why', async (t) => {
    const h = await runnerHost(t);
    const admin = new RunnerAdminClient([], `${h.baseUrl}/acme/widgets`, h.systemToken);
    const key = newRunnerKey();
    const good = xmlPublicKey(key);
    const modulus = /<Modulus>([^<]+)<\/Modulus>/.exec(good)?.[1] ?? '';
    const small = xmlPublicKey(generateKeyPairSync('rsa', { modulusLength: 1024 }).privateKey);
    const cases: [string, RegExp][] = [
      ['-----BEGIN PUBLIC KEY-----\nMIIBIjANBg\n-----END PUBLIC KEY-----', /public_key is not an <RSAKeyValue> element; send the runner's RSA public key as \.NET XML/],
      [`<RSAKeyValue><Modulus>${modulus}</Modulus></RSAKeyValue>`, /needs both <Modulus> and <Exponent>/],
      [`<RSAKeyValue><Modulus>${modulus}</Modulus><Exponent>AQAB</Exponent><D>AQAB</D></RSAKeyValue>`, /contains the private parameter <D>: never send the private key/],
      [`<RSAKeyValue><Modulus>not base64!</Modulus><Exponent>AQAB</Exponent></RSAKeyValue>`, /<Modulus> is not base64/],
      [`<RSAKeyValue><Modulus>${modulus}</Modulus><Exponent>AQAB</Exponent><Exponent>AQAB</Exponent></RSAKeyValue>`, /has <Exponent> twice/],
      [small, /is not usable \(has 1024 bits; at least 2048 are required\)/],
    ];
    for (const [publicKey, expected] of cases) {
      const result = await admin.register(body(h.baseUrl, { public_key: publicKey }));
      assert.equal(result.status, 400, publicKey);
      assert.equal((result.body as { code: string }).code, 'invalid_public_key');
      assert.match(message(result), expected);
    }
    // Whitespace, line-wrapped base64 and an XML declaration are fine.
    const exponent = /<Exponent>([^<]+)<\/Exponent>/.exec(good)?.[1] ?? '';
    const wrapped = `<?xml version="1.0"?>\n<RSAKeyValue>\n  <Exponent>${exponent}</Exponent>\n  <Modulus>${modulus.replace(/(.{64})/g, '$1\n    ')}</Modulus>\n</RSAKeyValue>\n`;
    assert.equal((await admin.register(body(h.baseUrl, { public_key: wrapped }))).status, 201);
    assert.equal((await new RunnerAdminClient([], `${h.baseUrl}/acme/widgets`, h.systemToken).runnersByName('build-01')).status, 200);
  });

  it('refuse bad bodies with a 4xx naming the field, never a 500', async (t) => {
    const h = await runnerHost(t);
    const admin = new RunnerAdminClient([], `${h.baseUrl}/acme/widgets`, h.systemToken);
    const refused = async (overrides: Record<string, unknown>, status: number, expected: RegExp) => {
      const result = await admin.register(body(h.baseUrl, overrides));
      assert.equal(result.status, status, `${JSON.stringify(overrides)}: ${JSON.stringify(result.body)}`);
      assert.match(message(result), expected);
    };
    await refused({ replace: true }, 400, /replace: true needs runner_id/);
    await refused({ runner_id: 7 }, 400, /runner_id is only read with replace: true/);
    await refused({ group_id: 99 }, 404, /Could not find a runner group with id 99/);
    await refused({ group_id: 2 }, 400, /built-in pool and takes no external runners/);
    await refused({ url: `${h.baseUrl}/a/b/c` }, 400, /must name an owner or a repository/);
    await refused({ name: '  ' }, 400, /name must not be blank/);
    await refused({ name: 'tab\there' }, 400, /name/);
    await refused({ public_key: undefined }, 400, /public_key/);
    await refused({ labels: [{ id: 0, name: '', type: 'user' }] }, 400, /a label has no name/);
    await refused({ labels: [{ id: 0, name: 'gpu', type: 'hosted' }] }, 400, /label type must be "system" or "user"/);
    const notJson = await fetch(`${h.baseUrl}/api/v3/actions/runners/register`, {
      method: 'POST',
      headers: { authorization: `RemoteAuth ${h.systemToken}`, 'content-type': 'application/json' },
      body: '{',
    });
    assert.equal(notJson.status, 400);
    assert.equal((await admin.deleteRunner(0)).status, 400, 'runner ids start at 1');
  });

  it('follow SVC_RUNNER_FLOW: legacy keeps use_v2_flow false, broker answers true; the routes are always served', async (t) => {
    for (const flow of ['legacy', 'broker'] as const) {
      const h = await runnerHost(t, { env: { SVC_RUNNER_FLOW: flow } });
      const answer = await send([], 'POST', `${h.baseUrl}/api/v3/actions/runner-registration`, {
        headers: { authorization: `RemoteAuth ${h.systemToken}` },
        json: { url: `${h.baseUrl}/acme/widgets`, runner_event: 'register' },
      });
      assert.equal(answer.status, 200);
      assert.equal((answer.body as { use_v2_flow: boolean }).use_v2_flow, flow === 'broker');
      assert.ok((answer.body as { token: string }).token, 'a tenant token either way (legacy removal needs it)');
      const registered = await new RunnerAdminClient([], `${h.baseUrl}/acme/widgets`, h.systemToken).register(body(h.baseUrl));
      assert.equal(registered.status, 201);
      const authorization = (registered.body as { authorization: Record<string, unknown> }).authorization;
      assert.equal(authorization['server_url'], `${h.baseUrl}/broker/`);
      assert.equal(authorization['authorization_url'], `${h.baseUrl}/_apis/oauth2/token`);
      assert.equal(authorization['legacy_authorization_url'], null);
    }
  });
});
