import assert from 'node:assert/strict';
import { describe, it, type TestContext } from 'node:test';
import { randomUUID } from 'node:crypto';
import { SignJWT, UnsecuredJWT } from 'jose';
import { runnerHost, type RunnerHost } from './runner-host.js';
import { clientAssertion, LOCATION, newRunnerKey, ScriptedRunner, type RunnerConfig } from './scripted-runner.js';

interface Setup {
  readonly server: RunnerHost;
  readonly runner: ScriptedRunner;
  readonly config: RunnerConfig;
}

async function setup(t: TestContext): Promise<Setup> {
  const server = await runnerHost(t);
  const runner = new ScriptedRunner({ url: `${server.baseUrl}/acme/widgets`, token: server.systemToken, name: 'build-01', clock: server.clock });
  return { server, runner, config: await runner.configure() };
}

async function exchange(setup: Setup, overrides: Record<string, unknown> = {}, options: { alg?: 'RS256' | 'PS256'; key?: RunnerConfig['key'] } = {}) {
  const { config, server } = setup;
  const assertion = await clientAssertion({
    clientId: config.credentials.clientId,
    audience: config.credentials.authorizationUrl,
    key: options.key ?? config.key,
    nowMs: server.clock.now(),
    overrides,
    ...(options.alg ? { alg: options.alg } : {}),
  });
  return setup.runner.requestToken(config, assertion);
}

function oauthError(result: { status: number; body: unknown }): { error: string; error_description: string } {
  assert.equal(result.status, 400, JSON.stringify(result.body));
  return result.body as { error: string; error_description: string };
}

describe('OAuth token exchange (client assertions)', () => {
  it('issues a JWT access token for the assertion the runner signs (RS256), and for PS256', async (t) => {
    const shared = await setup(t);
    const rs = await exchange(shared);
    assert.equal(rs.status, 200);
    const body = rs.body as Record<string, unknown>;
    assert.equal(body['token_type'], 'Bearer');
    assert.equal(body['expires_in'], 3600);
    const [header, payload] = String(body['access_token']).split('.').slice(0, 2).map((part) => JSON.parse(Buffer.from(part, 'base64url').toString()) as Record<string, unknown>);
    assert.equal(header?.['alg'], 'RS256');
    assert.equal(payload?.['runner_id'], shared.config.settings.agentId);
    assert.equal(payload?.['runner_group_id'], 1);
    assert.equal(payload?.['is_ephemeral'], false);
    assert.deepEqual(payload?.['labels'], ['self-hosted', 'Linux', 'X64']);
    assert.equal(payload?.['exp'], Math.floor(shared.server.clock.now() / 1000) + 3600);

    assert.equal((await exchange(shared, {}, { alg: 'PS256' })).status, 200, 'PS256 (RequireFipsCryptography) is accepted too');
    assert.equal((await exchange(shared, { nbf: Math.floor(shared.server.clock.now() / 1000) - 30, iat: Math.floor(shared.server.clock.now() / 1000) - 30 })).status, 200, 'back-dated nbf with iat (github-act-runner)');
    assert.equal((await exchange(shared, { nbf: Math.floor(shared.server.clock.now() / 1000) + 120 })).status, 200, 'within the clock-skew allowance');
  });

  it('refuses expired and not-yet-valid assertions as clock skew, not as a deleted registration', async (t) => {
    const s = await setup(t);
    const now = Math.floor(s.server.clock.now() / 1000);
    const expired = oauthError(await exchange(s, { nbf: now - 3600, exp: now - 1800 }));
    assert.equal(expired.error, 'invalid_grant');
    assert.match(expired.error_description, /^The bearer token expired on .*\. Current server time is 2030-01-01T00:00:00\.000Z\.$/);
    const early = oauthError(await exchange(s, { nbf: now + 3600, exp: now + 3900 }));
    assert.equal(early.error, 'invalid_grant');
    assert.match(early.error_description, /not valid until .*Current server time is/);
  });

  it('refuses forged assertions and unknown clients with invalid_client', async (t) => {
    const s = await setup(t);
    const forged = oauthError(await exchange(s, {}, { key: newRunnerKey() }));
    assert.equal(forged.error, 'invalid_client');
    assert.match(forged.error_description, /signature/);
    assert.equal(oauthError(await exchange(s, { aud: `${s.server.baseUrl}/somewhere/else` })).error, 'invalid_client');
    assert.equal(oauthError(await exchange(s, { iss: randomUUID() })).error, 'invalid_client');
    const unknown = randomUUID();
    assert.equal(oauthError(await exchange(s, { iss: unknown, sub: unknown })).error, 'invalid_client');
    const hmac = await new SignJWT({ sub: s.config.credentials.clientId, iss: s.config.credentials.clientId, aud: s.config.credentials.authorizationUrl, jti: randomUUID() })
      .setProtectedHeader({ alg: 'HS256' })
      .setNotBefore(Math.floor(s.server.clock.now() / 1000))
      .setExpirationTime(Math.floor(s.server.clock.now() / 1000) + 300)
      .sign(new TextEncoder().encode('a shared secret nobody agreed on'));
    assert.equal(oauthError(await s.runner.requestToken(s.config, hmac)).error, 'invalid_client');
    const unsigned = new UnsecuredJWT({ sub: s.config.credentials.clientId, iss: s.config.credentials.clientId, aud: s.config.credentials.authorizationUrl, jti: randomUUID() }).encode();
    assert.equal((await s.runner.requestToken(s.config, unsigned)).status, 400);
  });

  it('takes an assertion once (jti), and checks the form', async (t) => {
    const s = await setup(t);
    const assertion = await clientAssertion({ clientId: s.config.credentials.clientId, audience: s.config.credentials.authorizationUrl, key: s.config.key, nowMs: s.server.clock.now() });
    assert.equal((await s.runner.requestToken(s.config, assertion)).status, 200);
    const replay = oauthError(await s.runner.requestToken(s.config, assertion));
    assert.equal(replay.error, 'invalid_grant');
    assert.match(replay.error_description, /already used/);

    assert.equal(oauthError(await s.runner.requestToken(s.config, 'not-a-jwt')).error, 'invalid_request');
    const url = s.config.credentials.authorizationUrl;
    const form = async (fields: Record<string, string>) => {
      const response = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams(fields).toString() });
      assert.match(response.headers.get('content-type') ?? '', /^application\/json/);
      return { status: response.status, body: (await response.json()) as unknown };
    };
    assert.equal(oauthError(await form({ grant_type: 'password', client_assertion: assertion })).error, 'unsupported_grant_type');
    assert.equal(oauthError(await form({ grant_type: 'client_credentials' })).error, 'invalid_request');
  });

  it('an expired access token gets the Bearer challenge, and a new exchange heals it', async (t) => {
    const s = await setup(t);
    const locations = await s.runner.connectionData(s.config.settings.serverUrl);
    const token = await s.runner.accessToken(s.config);
    const pools = (bearer: string) => s.runner.call(locations, s.config.settings.serverUrl, { method: 'GET', location: LOCATION.pools, bearer });
    assert.equal((await pools(token)).status, 200);
    s.server.clock.advance(3601_000);
    const stale = await pools(token);
    assert.equal(stale.status, 401);
    assert.equal(stale.headers.get('www-authenticate'), 'Bearer');
    assert.equal((await pools(await s.runner.accessToken(s.config))).status, 200);
  });
});
