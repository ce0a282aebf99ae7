/**
 * The relay's forge mirror against the forge simulator's git (smart HTTP, Basic
 * `x-access-token:<token>`): incremental fetches (a mirrored commit costs none), one fetch in
 * flight per repository whatever the number of concurrent requests, a commit the forge does not
 * have (404 naming it), a forge that is down (503, then 503 at once without asking it again while
 * mirrored commits are still served), a refused credential (502, the token in no message), and
 * where the forge's git is from its API base.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, it, type TestContext } from 'node:test';
import { SvcError } from '../../core/kernel/index.js';
import { patCredentials } from '../../plugins/checkout-relay/forge-credentials.js';
import { forgeGitBase, repositoryGitUrl } from '../../plugins/checkout-relay/forge-git-url.js';
import { createForgeMirror, type ForgeMirror } from '../../plugins/checkout-relay/forge-mirror.js';
import { startForgeSimulator, type ForgeSimulator } from '../support/forge-simulator/index.js';
import { tempDir } from '../support/services.js';

const TOKEN = 'ghp_mirror_test_token';

interface Setup {
  readonly forge: ForgeSimulator;
  readonly mirror: ForgeMirror;
  readonly dir: string;
  readonly clock: { now: () => number; advance: (ms: number) => void };
}

async function setup(t: TestContext, token: string = TOKEN): Promise<Setup> {
  const forge = await startForgeSimulator(t, { token: TOKEN });
  let now = Date.UTC(2030, 0, 1);
  const clock = { now: () => now, advance: (ms: number) => void (now += ms) };
  const dir = await tempDir(t);
  const mirror = createForgeMirror({ dir, gitBase: forge.webUrl, credentials: patCredentials(token), clock, retryAfterMs: 30_000 });
  return { forge, mirror, dir, clock };
}

async function rejects(promise: Promise<unknown>): Promise<SvcError> {
  try {
    await promise;
  } catch (error) {
    assert.ok(error instanceof SvcError, `an SvcError, not ${String(error)}`);
    return error;
  }
  assert.fail('expected a rejection');
}

describe('checkout relay: forge mirror', () => {
  it('fetches incrementally: a commit it has costs no fetch, a new one one fetch, with the tags into its history', async (t) => {
    const { forge, mirror, dir } = await setup(t);
    const first = await forge.repositories.create('acme/app', { files: { 'a.txt': 'one\n' }, tags: ['v1'] }, { private: true });
    await mirror.ensure('acme/app', first, 'refs/heads/main');
    assert.equal(forge.gitFetches('acme/app'), 1);
    await mirror.ensure('acme/app', first, 'refs/heads/main');
    await mirror.ensure('ACME/App', first, 'refs/heads/main');
    assert.equal(forge.gitFetches('acme/app'), 1, 'a mirrored commit is not fetched again, whatever the casing');

    const second = await forge.repositories.commit('acme/app', { files: { 'a.txt': 'two\n' }, tags: ['v2'] });
    const gitDir = await mirror.ensure('acme/app', second, 'refs/heads/main');
    assert.equal(forge.gitFetches('acme/app'), 2);
    assert.equal(mirror.fetches, 2);
    assert.match(gitDir, /acme\/app\.git$/);
    const history = await mirror.history('acme/app', second);
    assert.deepEqual(history.tags.map((tag) => tag.name).sort(), ['v1', 'v2']);
    assert.deepEqual((await mirror.history('acme/app', first)).tags.map((tag) => tag.name), ['v1'], 'only the tags into the commit\'s history');
    assert.deepEqual(history.shallow, []);
    // The credential went to git through its environment: nothing in the mirror keeps it.
    const encoded = Buffer.from(`x-access-token:${TOKEN}`).toString('base64');
    const found = spawnSync('grep', ['-rlF', '-e', TOKEN, '-e', encoded, dir], { encoding: 'utf8' });
    assert.equal(found.status, 1, `grep found the credential in ${found.stdout}`);
  });

  it('a redirect from the forge is refused: the credential does not follow it to another host (502)', async (t) => {
    const elsewhere: string[] = [];
    const other = createServer((request, response) => {
      elsewhere.push(String(request.headers.authorization));
      response.writeHead(404).end();
    });
    const redirecting = createServer((request, response) => {
      const { port } = other.address() as AddressInfo;
      response.writeHead(302, { location: `http://127.0.0.1:${port}${request.url ?? '/'}` }).end();
    });
    for (const server of [other, redirecting]) await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    t.after(() => {
      for (const server of [other, redirecting]) server.close();
    });
    const mirror = createForgeMirror({
      dir: await tempDir(t),
      gitBase: `http://127.0.0.1:${(redirecting.address() as AddressInfo).port}`,
      credentials: patCredentials(TOKEN),
      clock: { now: () => 0 },
    });
    const error = await rejects(mirror.ensure('acme/app', 'c'.repeat(40), 'refs/heads/main'));
    assert.equal(error.status, 502);
    assert.equal(error.code, 'forge_failed');
    assert.match(error.message, /redirected the fetch of acme\/app .*set SVC_FORGE_GIT_URL/);
    assert.deepEqual(elsewhere, [], 'nothing reached the other host');
  });

  it('one fetch is in flight per repository: 20 concurrent requests for a new commit cost the forge one fetch', async (t) => {
    const { forge, mirror } = await setup(t);
    const sha = await forge.repositories.create('acme/app', { files: { 'a.txt': 'one\n' } });
    const other = await forge.repositories.create('acme/lib', { files: { 'b.txt': 'one\n' } });
    const dirs = await Promise.all([
      ...Array.from({ length: 20 }, () => mirror.ensure('acme/app', sha, 'refs/heads/main')),
      ...Array.from({ length: 5 }, () => mirror.ensure('acme/lib', other, 'refs/heads/main')),
    ]);
    assert.equal(new Set(dirs).size, 2);
    assert.equal(forge.gitFetches('acme/app'), 1);
    assert.equal(forge.gitFetches('acme/lib'), 1);
    assert.equal(mirror.fetches, 2);
  });

  it('a pull request run: the commit of refs/pull/N/merge that no branch has is fetched by its ref', async (t) => {
    const { forge, mirror } = await setup(t);
    await forge.repositories.create('acme/app', { files: { 'a.txt': 'one\n' } });
    // A commit on a branch that is then deleted is reachable only from the pull ref.
    const merge = await forge.repositories.commit('acme/app', { files: { 'a.txt': 'merged\n' }, branch: 'feature' });
    await forge.repositories.commit('acme/app', { files: { 'a.txt': 'main moves\n' } });
    await forge.repositories.updateRef('acme/app', 'refs/pull/7/merge', merge);
    await forge.repositories.updateRef('acme/app', 'refs/heads/feature', undefined);
    await mirror.ensure('acme/app', merge, 'refs/pull/7/merge');
    assert.equal(forge.gitFetches('acme/app'), 1, 'the run ref came with the branches and tags');
  });

  it('a commit the forge does not have is a 404 naming the commit', async (t) => {
    const { forge, mirror } = await setup(t);
    await forge.repositories.create('acme/app', { files: { 'a.txt': 'one\n' } });
    const missing = 'c'.repeat(40);
    const error = await rejects(mirror.ensure('acme/app', missing, 'refs/heads/main'));
    assert.equal(error.status, 404);
    assert.equal(error.code, 'commit_not_found');
    assert.match(error.message, new RegExp(`^commit ${missing} is not on the forge's git at http://127\\.0\\.0\\.1:\\d+ in acme/app`));
  });

  it('a repository the forge does not have (or the token cannot read) is a 404 naming it', async (t) => {
    const { mirror } = await setup(t);
    const error = await rejects(mirror.ensure('acme/nothing', 'c'.repeat(40), 'refs/heads/main'));
    assert.equal(error.status, 404);
    assert.equal(error.code, 'repository_not_found');
    assert.match(error.message, /has no repository acme\/nothing/);
  });

  it('a refused credential is a 502 naming SVC_FORGE_TOKEN, and the token is in no message', async (t) => {
    const wrong = 'ghp_wrong_secret_value';
    const { forge, mirror } = await setup(t, wrong);
    const sha = await forge.repositories.create('acme/app', { files: { 'a.txt': 'one\n' } }, { private: true });
    const error = await rejects(mirror.ensure('acme/app', sha, 'refs/heads/main'));
    assert.equal(error.status, 502);
    assert.equal(error.code, 'forge_auth_failed');
    assert.match(error.message, /refused svc's credential for acme\/app .*check SVC_FORGE_TOKEN/);
    assert.ok(!JSON.stringify({ message: error.message, details: error.details }).includes(wrong));
    assert.ok(!error.message.includes(Buffer.from(`x-access-token:${wrong}`).toString('base64')));
  });

  it('the forge down is a 503 forge_unavailable; for the retry window the relay answers at once, mirrored commits are still served', async (t) => {
    const { forge, mirror, clock } = await setup(t);
    const kept = await forge.repositories.create('acme/app', { files: { 'a.txt': 'one\n' } });
    await mirror.ensure('acme/app', kept, 'refs/heads/main');
    const later = await forge.repositories.commit('acme/app', { files: { 'a.txt': 'two\n' } });
    await forge.stop();

    const error = await rejects(mirror.ensure('acme/app', later, 'refs/heads/main'));
    assert.equal(error.status, 503);
    assert.equal(error.code, 'forge_unavailable');
    assert.match(error.message, /^the forge's git at http:\/\/127\.0\.0\.1:\d+ is unavailable \(git fetch of acme\/app: .+\); the relay asks it again after 30 s, commits it already mirrored are still served$/);
    const fetches = mirror.fetches;

    const again = await rejects(mirror.ensure('acme/app', later, 'refs/heads/main'));
    assert.equal(again.code, 'forge_unavailable');
    assert.equal(mirror.fetches, fetches, 'inside the window the forge is not asked');
    assert.match(await mirror.ensure('acme/app', kept, 'refs/heads/main'), /acme\/app\.git$/);

    clock.advance(30_001);
    await rejects(mirror.ensure('acme/app', later, 'refs/heads/main'));
    assert.equal(mirror.fetches, fetches + 1, 'after the window it asks again');
  });
});

describe('checkout relay: the forge git URL', () => {
  it('is derived from SVC_FORGE_API_URL (github.com, GHES) unless SVC_FORGE_GIT_URL names it', () => {
    assert.equal(forgeGitBase('https://api.github.com'), 'https://github.com');
    assert.equal(forgeGitBase('https://ghe.example/api/v3'), 'https://ghe.example');
    assert.equal(forgeGitBase('https://ghe.example:8443/api/v3/'), 'https://ghe.example:8443');
    assert.equal(forgeGitBase('http://127.0.0.1:4000'), 'http://127.0.0.1:4000');
    assert.equal(forgeGitBase('https://api.github.com', 'http://127.0.0.1:5000/'), 'http://127.0.0.1:5000');
    assert.equal(repositoryGitUrl('https://github.com', 'acme/app'), 'https://github.com/acme/app.git');
    assert.equal(repositoryGitUrl('https://github.com', '../etc'), undefined);
  });
});
