/**
 * `svc-runner configure` against `svc serve` (RUNNER-PROTOCOL.md §1; SPEC "Command-line client",
 * "Runner root files", "Runner messages"): the three root files in the official format, owner-only;
 * `--replace`; the spec's messages for an already configured root and a name already taken; a
 * wrong token. The runner's credential is then used for real (a session), not just inspected.
 */
import assert from 'node:assert/strict';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { createServer, type AddressInfo } from 'node:net';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { configure, runToEnd, svcHost, tempDir } from './listener-harness.js';

const mode = (path: string): number => statSync(path).mode & 0o777;

/** A loopback port nothing listens on. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

describe('svc-runner configure', () => {
  it('registers and writes .runner, .credentials and .credentials_rsaparams, owner-only, in the official format', async (t) => {
    const h = await svcHost(t);
    const root = tempDir(t);
    const output = await configure(t, h, root, 'build-01');
    for (const line of ['√ Connected to GitHub', '√ Runner successfully added', '√ Runner connection is good', '√ Settings Saved.']) {
      assert.ok(output.includes(line), `prints "${line}":\n${output}`);
    }
    for (const name of ['.runner', '.credentials', '.credentials_rsaparams']) assert.equal(mode(join(root, name)), 0o600, `${name} is owner-only`);
    assert.ok(statSync(join(root, '_work')).isDirectory(), '_work/ exists');

    const settings = JSON.parse(readFileSync(join(root, '.runner'), 'utf8')) as Record<string, unknown>;
    assert.deepEqual(Object.keys(settings), ['agentId', 'agentName', 'poolId', 'poolName', 'serverUrl', 'gitHubUrl', 'workFolder', 'isHostedServer', 'serverUrlV2', 'disableUpdate']);
    assert.equal(settings['serverUrlV2'], `${h.baseUrl}/broker/`, 'the ServerUrlV2 property the server gave');
    assert.equal(settings['agentName'], 'build-01');
    assert.equal(settings['poolName'], 'Default');
    assert.equal(settings['serverUrl'], `${h.baseUrl}/`);
    assert.equal(settings['gitHubUrl'], `${h.baseUrl}/acme/widgets`);
    assert.equal(settings['workFolder'], '_work');
    assert.equal(settings['isHostedServer'], false);

    const credentials = JSON.parse(readFileSync(join(root, '.credentials'), 'utf8')) as { scheme: string; data: Record<string, string> };
    assert.equal(credentials.scheme, 'OAuth');
    assert.deepEqual(Object.keys(credentials.data), ['clientId', 'authorizationUrl', 'requireFipsCryptography']);
    assert.equal(credentials.data['authorizationUrl'], `${h.baseUrl}/_apis/oauth2/token`);
    assert.equal(credentials.data['requireFipsCryptography'], 'False');
    const params = JSON.parse(readFileSync(join(root, '.credentials_rsaparams'), 'utf8')) as Record<string, string>;
    assert.deepEqual(Object.keys(params), ['d', 'dp', 'dq', 'exponent', 'inverseQ', 'modulus', 'p', 'q']);
    assert.equal(Buffer.from(params['modulus'] ?? '', 'base64').length, 256, 'a 2048-bit key');
  });

  it("refuses a root that is already configured with the spec's message, and --replace configures it again", async (t) => {
    const h = await svcHost(t);
    const root = tempDir(t);
    await configure(t, h, root, 'build-01');
    const before = readFileSync(join(root, '.runner'), 'utf8');
    const again = await runToEnd(t, ['configure', '--url', `${h.baseUrl}/acme/widgets`, '--token', h.systemToken, '--name', 'build-01', '--no-externals', '--runner-root', root]);
    assert.equal(again.code, 1);
    assert.match(again.output, /Runner is already configured in .+\. Use --replace/);
    assert.ok(again.output.includes(root));
    assert.equal(readFileSync(join(root, '.runner'), 'utf8'), before, 'nothing was touched');

    const replaced = await configure(t, h, root, 'build-01', ['--replace']);
    assert.match(replaced, /A runner exists with the same name\n√ Successfully replaced the runner/);
    const after = JSON.parse(readFileSync(join(root, '.runner'), 'utf8')) as { agentId: number };
    assert.equal(after.agentId, (JSON.parse(before) as { agentId: number }).agentId, 'the same runner, replaced');
  });

  it("refuses a name another runner has, unless --replace, which takes the registration over", async (t) => {
    const h = await svcHost(t);
    const first = tempDir(t);
    const second = tempDir(t);
    await configure(t, h, first, 'shared-name');
    const clash = await runToEnd(t, ['configure', '--url', `${h.baseUrl}/acme/widgets`, '--token', h.systemToken, '--name', 'shared-name', '--no-externals', '--runner-root', second]);
    assert.equal(clash.code, 1);
    assert.match(clash.output, /Runner 'shared-name' already exists/);
    assert.equal(existsSync(join(second, '.runner')), false);
    assert.equal(existsSync(join(second, '.credentials')), false);

    await configure(t, h, second, 'shared-name', ['--replace']);
    // The first root's key no longer belongs to the runner: its registration is gone for it.
    const stale = await runToEnd(t, ['run', '--runner-root', first], {}, 30_000);
    assert.equal(stale.code, 1, stale.output);
    assert.match(stale.output, /The runner registration has been deleted from the server, please re-configure/);
  });

  it('stops at a wrong token with the server\'s reason and writes nothing', async (t) => {
    const h = await svcHost(t);
    const root = tempDir(t);
    const { code, output } = await runToEnd(t, ['configure', '--url', `${h.baseUrl}/acme/widgets`, '--token', 'not-the-system-token', '--name', 'x', '--no-externals', '--runner-root', root]);
    assert.equal(code, 1);
    assert.match(output, /runner-registration answered 401: the registration token is not valid for this server/);
    for (const name of ['.runner', '.credentials', '.credentials_rsaparams']) assert.equal(existsSync(join(root, name)), false, `${name} not written`);
  });

  it('stops at an unreachable server naming it', async (t) => {
    const root = tempDir(t);
    const port = await closedPort();
    const { code, output } = await runToEnd(t, ['configure', '--url', `http://127.0.0.1:${port}/acme/widgets`, '--token', 'x', '--name', 'x', '--no-externals', '--runner-root', root]);
    assert.equal(code, 1);
    assert.ok(output.includes(`POST http://127.0.0.1:${port}/api/v3/actions/runner-registration failed: connect ECONNREFUSED`), output);
    assert.equal(existsSync(join(root, '.runner')), false);
  });

  it('prints its version', async (t) => {
    const { code, output } = await runToEnd(t, ['--version']);
    assert.equal(code, 0);
    assert.match(output, /^\d+\.\d+\.\d+ \(runner protocol 2\.337\.0\)\n$/);
  });
});
