/**
 * The forge simulator itself: it answers like the forge (sha media type, commit object, 422 for
 * an unknown ref, 404 for a repository the caller cannot see, a redirect to an archive on another
 * origin with the forge's one top-level directory), and it catches requests and answers that do
 * not match GitHub's OpenAPI description — otherwise tests built on it could not fail.
 */
import assert from 'node:assert/strict';
import { execFile, execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it, type TestContext } from 'node:test';
import { assertMatchesDescription, ForgeSimulator, GitRepositories, startForgeSimulator, type ForgeSimulatorOptions } from './index.js';

const TOKEN = 'ghp_simulator_test_token';

/** A simulator the test checks by hand (it is expected to record violations). */
async function looseSimulator(t: TestContext, options: ForgeSimulatorOptions = {}): Promise<ForgeSimulator> {
  const dir = mkdtempSync(join(tmpdir(), 'svc-forge-'));
  const simulator = new ForgeSimulator(new GitRepositories(dir), options);
  t.after(async () => {
    await simulator.stop();
    rmSync(dir, { recursive: true, force: true });
  });
  await simulator.start();
  return simulator;
}

const get = (url: string, headers: Record<string, string> = {}) => fetch(url, { headers: { 'user-agent': 'test', ...headers }, redirect: 'manual' });

describe('forge simulator', () => {
  it('resolves refs as the forge does, in both media types, and hides private repositories without the token', async (t) => {
    const forge = await startForgeSimulator(t, { token: TOKEN, apiPrefix: '/api/v3' });
    const first = await forge.repositories.create('Acme/Tool', { files: { 'action.yml': 'name: t\n' }, tags: ['v1'] });
    const second = await forge.repositories.commit('Acme/Tool', { files: { 'README.md': 'hi\n' }, branch: 'releases/v2' });
    await forge.repositories.create('acme/secret', { files: { 'a.txt': 'x' } }, { private: true });
    assert.ok(forge.apiUrl.endsWith('/api/v3'));

    const sha = await get(`${forge.apiUrl}/repos/acme/tool/commits/v1`, { accept: 'application/vnd.github.sha' });
    assert.equal(sha.status, 200);
    assert.equal(await sha.text(), first);
    assert.equal(await (await get(`${forge.apiUrl}/repos/acme/tool/commits/releases/v2`, { accept: 'application/vnd.github.sha' })).text(), second);
    assert.equal(await (await get(`${forge.apiUrl}/repos/acme/tool/commits/${first.slice(0, 7)}`, { accept: 'application/vnd.github.sha' })).text(), first);

    const json = await get(`${forge.apiUrl}/repos/acme/tool/commits/releases/v2`, { accept: 'application/vnd.github+json' });
    const commit = (await json.json()) as { sha: string; parents: { sha: string }[]; commit: { message: string } };
    assert.equal(commit.sha, second);
    assert.deepEqual(commit.parents.map((parent) => parent.sha), [first]);

    const unknownRef = await get(`${forge.apiUrl}/repos/acme/tool/commits/v9`);
    assert.equal(unknownRef.status, 422);
    assert.match(((await unknownRef.json()) as { message: string }).message, /No commit found for SHA: v9/);
    assert.equal((await get(`${forge.apiUrl}/repos/acme/nothing/commits/v1`)).status, 404);
    assert.equal((await get(`${forge.apiUrl}/repos/acme/secret/commits/main`)).status, 404, 'private without the token');
    assert.equal((await get(`${forge.apiUrl}/repos/acme/secret/commits/main`, { authorization: `Bearer ${TOKEN}` })).status, 200);
    assert.equal((await get(`${forge.apiUrl}/repos/acme/secret/commits/main`, { authorization: 'token wrong' })).status, 401);
    assert.equal(forge.count('repos/get-commit'), 9);
    assert.deepEqual(forge.violations, []);
  });

  it('redirects archive downloads to another origin and serves one top-level directory', async (t) => {
    const forge = await startForgeSimulator(t, { token: TOKEN });
    const sha = await forge.repositories.create('acme/tool', { files: { 'action.yml': 'name: t\n', 'lib/x.js': '1' }, tags: ['v1'] }, { private: true });
    const redirect = await get(`${forge.apiUrl}/repos/acme/tool/tarball/v1`, { authorization: `Bearer ${TOKEN}` });
    assert.equal(redirect.status, 302);
    const location = redirect.headers.get('location') ?? '';
    assert.ok(location.startsWith(`${forge.webUrl}/_codeload/acme/tool/legacy.tar.gz/v1?token=`), location);
    assert.notEqual(new URL(location).origin, new URL(forge.apiUrl).origin);

    // Followed by fetch: the Authorization header stays with the API's origin.
    const archive = await fetch(`${forge.apiUrl}/repos/acme/tool/tarball/${sha}`, { headers: { authorization: `Bearer ${TOKEN}` } });
    assert.equal(archive.status, 200);
    const entries = execFileSync('tar', ['-tzf', '-'], { input: Buffer.from(await archive.arrayBuffer()) }).toString('utf8').split('\n').filter(Boolean);
    assert.deepEqual([...new Set(entries.map((entry) => entry.split('/')[0]))], [`acme-tool-${sha.slice(0, 7)}`]);
    assert.ok(entries.includes(`acme-tool-${sha.slice(0, 7)}/lib/x.js`));
    const downloads = forge.requests.filter((record) => record.operationId === 'codeload');
    assert.equal(downloads.length, 1);
    assert.equal(downloads[0]?.authorization, undefined, 'the token did not follow the redirect');

    // Without the token the private archive is not served.
    const anonymous = await fetch(`${forge.apiUrl}/repos/acme/tool/tarball/v1`);
    assert.equal(anonymous.status, 404);
  });

  it('records requests and answers that do not match the description, and fails the test with them', async (t) => {
    const forge = await looseSimulator(t, {
      operations: {
        // An answer off the commit schema, and a status the operation does not document.
        'repos/get-commit': (request) => (request.params['ref'] === 'teapot' ? { status: 418, json: { message: 'tea' } } : { status: 200, json: { sha: 42 } }),
      },
    });
    await forge.repositories.create('acme/tool', { files: { 'a.txt': 'x' } });

    const offSchema = await get(`${forge.apiUrl}/repos/acme/tool/commits/main`);
    assert.equal(offSchema.status, 500);
    assert.match(forge.violations.join('\n'), /repos\/get-commit: response 200 body: .*body must have required property 'node_id'/);

    assert.equal((await get(`${forge.apiUrl}/repos/acme/tool/commits/teapot`)).status, 500);
    assert.match(forge.violations.join('\n'), /status 418 is not documented \(documented: 200, 404, 409, 422, 500, 503\)/);

    assert.equal((await get(`${forge.apiUrl}/repos/acme/tool/commits/main?per_page=lots`)).status, 400);
    assert.match(forge.violations.join('\n'), /query parameters: query\/per_page must be integer/);
    assert.equal((await get(`${forge.apiUrl}/repos/acme/tool/commits/main?shas=1`)).status, 400);
    assert.match(forge.violations.join('\n'), /must NOT have additional properties \('shas'\)/);
    assert.equal((await get(`${forge.apiUrl}/repos/acme/tool/commits/main`, { accept: 'application/vnd.github.raw' })).status, 400);
    assert.match(forge.violations.join('\n'), /asks for application\/vnd\.github\.raw, which the operation does not document/);
    assert.equal((await get(`${forge.apiUrl}/repos/acme/tool/branches`)).status, 404);
    assert.match(forge.violations.join('\n'), /GET \/repos\/acme\/tool\/branches: no operation of the simulator's table/);

    assert.throws(() => assertMatchesDescription(forge), /the forge simulator saw 6 request\(s\) or answer\(s\) that do not match GitHub's OpenAPI description/);
  });

  it('takes failures to inject, checked like any answer', async (t) => {
    const forge = await startForgeSimulator(t);
    await forge.repositories.create('acme/tool', { files: { 'a.txt': 'x' }, tags: ['v1'] });
    forge.failNext('repos/get-commit', { status: 503, json: { code: 'unavailable', message: 'Service unavailable' } });
    assert.equal((await get(`${forge.apiUrl}/repos/acme/tool/commits/v1`)).status, 503);
    assert.equal((await get(`${forge.apiUrl}/repos/acme/tool/commits/v1`)).status, 200);
    assert.deepEqual(
      forge.requests.map((record) => `${record.operationId} ${record.status}`),
      ['repos/get-commit 503', 'repos/get-commit 200'],
    );
  });

  it('serves git over smart HTTP (v0 and v2) with Basic x-access-token auth, counting fetches', async (t) => {
    const forge = await startForgeSimulator(t, { token: TOKEN });
    const sha = await forge.repositories.create('acme/secret', { files: { 'a.txt': 'x' }, tags: ['v1'] }, { private: true });
    const env = { PATH: process.env['PATH'] ?? '/usr/bin:/bin', HOME: '/nonexistent', GIT_CONFIG_NOSYSTEM: '1', GIT_CONFIG_GLOBAL: '/dev/null', GIT_TERMINAL_PROMPT: '0' };
    const header = (token: string) => `http.extraHeader=Authorization: Basic ${Buffer.from(`x-access-token:${token}`).toString('base64')}`;
    // Asynchronous: the simulator answers from this process.
    const lsRemote = (version: string, token?: string) =>
      new Promise<{ status: number; stdout: string; stderr: string }>((resolve) => {
        const args = [...(token === undefined ? [] : ['-c', header(token)]), '-c', `protocol.version=${version}`, 'ls-remote', `${forge.webUrl}/acme/secret.git`];
        execFile('git', args, { env, encoding: 'utf8' }, (error, stdout, stderr) => resolve({ status: error === null ? 0 : typeof error.code === 'number' ? error.code : -1, stdout, stderr }));
      });
    for (const version of ['0', '2']) {
      const listed = await lsRemote(version, TOKEN);
      assert.equal(listed.status, 0, listed.stderr);
      assert.match(listed.stdout, new RegExp(`^${sha}\trefs/heads/main$`, 'm'));
      assert.match(listed.stdout, new RegExp(`^${sha}\trefs/tags/v1$`, 'm'));
    }
    assert.equal(forge.gitFetches('ACME/secret'), 2);
    const wrong = await lsRemote('2', 'ghp_wrong');
    assert.notEqual(wrong.status, 0);
    assert.match(wrong.stderr, /Authentication failed|could not read Username/);
    const anonymous = await lsRemote('2');
    assert.notEqual(anonymous.status, 0, 'a private repository needs the token');
    assert.equal(forge.gitFetches('acme/secret'), 2, 'refused requests are not fetches');
    assert.ok(forge.gitRequests.some((entry) => entry.status === 401));
  });
});
