/**
 * actions/checkout against the relay with the real git: the run's snapshot (uncommitted and
 * untracked files included) fetched at depth 1 over protocol v2 and v0, `git clone` of the URL,
 * and the refusals git must report cleanly (bad token, another repository, push).
 */
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { gzipSync } from 'node:zlib';
import { tempDir } from '../support/services.js';
import { actionsCheckout, basicHeader, jobGit, localRunJob, okGit, relayHost, REPOSITORY, TREE } from './support.js';

async function treeOf(dir: string): Promise<Record<string, string>> {
  const files: Record<string, string> = {};
  for (const path of Object.keys(TREE)) files[path] = await readFile(join(dir, path), 'utf8');
  return files;
}

describe('checkout relay: git smart HTTP', () => {
  for (const protocol of ['2', '0'] as const) {
    it(`actions/checkout's fetch gets the snapshot commit at depth 1 (protocol v${protocol})`, async (t) => {
      const h = await relayHost(t);
      const job = await localRunJob(t, h);
      assert.match(job.serverUrl, /^http:\/\/svc\.localhost:\d+$/, 'jobs see the loopback alias');
      const { dir, fetch } = await actionsCheckout(t, job, { protocol });
      assert.equal(fetch.code, 0, fetch.stderr);
      if (protocol === '2') assert.match(fetch.stderr, /git-protocol: version=2/i, 'git spoke protocol v2');
      assert.equal((await okGit(dir, ['rev-parse', 'HEAD'])).trim(), job.sha);
      assert.equal((await okGit(dir, ['rev-parse', '--is-shallow-repository'])).trim(), 'true');
      assert.equal((await okGit(dir, ['rev-list', '--count', 'HEAD'])).trim(), '1');
      assert.deepEqual(await treeOf(dir), TREE);
      assert.equal((await okGit(dir, ['status', '--porcelain'])).trim(), '', 'the work tree is exactly the commit');
    });
  }

  it("a tag run: actions/checkout fetches the tag by name (+refs/tags/v1:refs/tags/v1) and finds the run's commit", async (t) => {
    const h = await relayHost(t);
    const job = await localRunJob(t, h, { ref: 'refs/tags/v1' });
    const { dir, fetch } = await actionsCheckout(t, job, { refSpec: '+refs/tags/v1:refs/tags/v1' });
    assert.equal(fetch.code, 0, fetch.stderr);
    assert.equal((await okGit(dir, ['rev-parse', 'refs/tags/v1^{commit}'])).trim(), job.sha);
    await okGit(dir, ['checkout', '--progress', '--force', 'refs/tags/v1']);
    assert.deepEqual(await treeOf(dir), TREE);
  });

  it('git clone of the URL checks out the run branch; a .git suffix and another casing work too', async (t) => {
    const h = await relayHost(t);
    const job = await localRunJob(t, h);
    const origin = new URL(job.serverUrl).origin;
    for (const url of [`${origin}/${REPOSITORY}`, `${origin}/ACME/App.git`]) {
      const dir = join(await tempDir(t), 'clone');
      await okGit('/', ['-c', `http.extraHeader=${basicHeader(job.token)}`, 'clone', '--quiet', url, dir]);
      assert.equal((await okGit(dir, ['rev-parse', 'HEAD'])).trim(), job.sha);
      assert.equal((await okGit(dir, ['symbolic-ref', 'HEAD'])).trim(), 'refs/heads/main');
      assert.deepEqual(await treeOf(dir), TREE);
    }
    // Only the run's ref and HEAD are advertised, none of the store's retention refs.
    const listed = await okGit('/', ['-c', `http.extraHeader=${basicHeader(job.token)}`, 'ls-remote', `${origin}/${REPOSITORY}`]);
    assert.deepEqual(listed.trim().split('\n').sort(), [`${job.sha}\tHEAD`, `${job.sha}\trefs/heads/main`]);
  });

  it('a wrong token is an authentication failure git reports (401 with a Basic challenge)', async (t) => {
    const h = await relayHost(t);
    const job = await localRunJob(t, h);
    const { fetch } = await actionsCheckout(t, job, { token: `${job.token.slice(0, -4)}AAAA` });
    assert.notEqual(fetch.code, 0);
    assert.match(fetch.stderr, /HTTP\/1\.1 401/);
    assert.match(fetch.stderr, /www-authenticate: Basic realm="svc"/i);
    assert.match(fetch.stderr, /could not read Username|Authentication failed/);

    const direct = await fetch401(`${h.baseUrl}/${REPOSITORY}/info/refs?service=git-upload-pack`);
    assert.equal(direct.status, 401);
    assert.equal(direct.headers.get('www-authenticate'), 'Basic realm="svc"');
  });

  it("another repository is a 404, whether it exists or not", async (t) => {
    const h = await relayHost(t);
    const job = await localRunJob(t, h);
    const { fetch } = await actionsCheckout(t, job, { repository: 'acme/other' });
    assert.notEqual(fetch.code, 0);
    assert.match(fetch.stderr, /HTTP\/1\.1 404/);
    assert.match(fetch.stderr, /repository acme\/other not found/);
  });

  it('push is refused with 403 and a message git shows', async (t) => {
    const h = await relayHost(t);
    const job = await localRunJob(t, h);
    const { dir, fetch } = await actionsCheckout(t, job);
    assert.equal(fetch.code, 0, fetch.stderr);
    await okGit(dir, ['commit', '--allow-empty', '-q', '-m', 'more']);
    const push = await jobGit(dir, ['push', 'origin', 'HEAD:refs/heads/main']);
    assert.notEqual(push.code, 0);
    assert.match(push.stderr, /403/);
    assert.match(push.stderr, /read-only/);
  });

  it('answers only the smart-HTTP tails: other root paths are not shadowed', async (t) => {
    const h = await relayHost(t);
    const job = await localRunJob(t, h);
    const auth = { authorization: `Bearer ${job.token}` };
    assert.equal((await fetch(`${h.baseUrl}/readyz`)).status, 200);
    const other = await fetch(`${h.baseUrl}/${REPOSITORY}/objects/info/packs`, { headers: auth });
    assert.equal(other.status, 404);
    const dumb = await fetch(`${h.baseUrl}/${REPOSITORY}/info/refs`, { headers: auth });
    assert.equal(dumb.status, 403);
    const advertised = await fetch(`${h.baseUrl}/${REPOSITORY}/info/refs?service=git-upload-pack`, { headers: auth });
    assert.equal(advertised.status, 200);
    assert.equal(advertised.headers.get('content-type'), 'application/x-git-upload-pack-advertisement');
    assert.match(advertised.headers.get('cache-control') ?? '', /no-cache/);
    const body = await advertised.text();
    assert.ok(body.startsWith('001e# service=git-upload-pack\n0000'), body.slice(0, 60));
    assert.ok(body.includes(`${job.sha} refs/heads/main`), 'the run branch is advertised');
    assert.ok(!body.includes('refs/svc/'), 'the store refs are not');

    // git gzips large negotiation bodies (Content-Encoding: gzip): a v2 ls-refs, compressed.
    const lsRefs = ['0014command=ls-refs\n', '0001', '000csymrefs\n', '0000'].join('');
    const listed = await fetch(`${h.baseUrl}/${REPOSITORY}/git-upload-pack`, {
      method: 'POST',
      headers: { ...auth, 'git-protocol': 'version=2', 'content-type': 'application/x-git-upload-pack-request', 'content-encoding': 'gzip' },
      body: gzipSync(lsRefs),
    });
    assert.equal(listed.status, 200);
    assert.equal(listed.headers.get('content-type'), 'application/x-git-upload-pack-result');
    assert.ok((await listed.text()).includes(`${job.sha} HEAD symref-target:refs/heads/main\n`));
  });
});

function fetch401(url: string): Promise<Response> {
  return fetch(url, { headers: { authorization: `Basic ${Buffer.from('x-access-token:nope').toString('base64')}` } });
}
