import assert from 'node:assert/strict';
import { existsSync, readdirSync } from 'node:fs';
import { request } from 'node:http';
import { dirname, join } from 'node:path';
import { describe, it } from 'node:test';
import { readCommitTree, isolateGitConfig, tarOf } from '../snapshots/support.js';
import { tempDir } from '../support/services.js';
import { CI_WORKING, DEPLOY, localRunsHost, makeWorkTree, submitRun, uploadBytes, uploadWorkTree } from './support.js';

isolateGitConfig();

const RETENTION_MS = 1800 * 1000;

describe('POST /api/v1/snapshots', () => {
  it('stores the streamed working tree as one commit: uncommitted and untracked files in, ignored ones out', async (t) => {
    const h = await localRunsHost(t);
    const dir = await makeWorkTree(t);
    const { status, body, pack } = await uploadWorkTree(h, dir);
    assert.equal(status, 201, JSON.stringify(body));
    assert.equal(body['repository'], 'acme/app');
    assert.match(String(body['sha']), /^[0-9a-f]{40}$/);
    assert.match(String(body['tree']), /^[0-9a-f]{40}$/);
    assert.equal(body['files'], pack.files);
    assert.equal(body['bytes'], pack.bytes);

    const tree = await readCommitTree(h.snapshots.repositoryPath('acme/app'), String(body['sha']));
    assert.deepEqual(Object.keys(tree).sort(), [
      '.github/workflows/ci.yml',
      '.github/workflows/deploy.yml',
      '.github/workflows/docs.yml',
      '.gitignore',
      'README.md',
      'notes.txt',
    ]);
    assert.equal(tree['.github/workflows/ci.yml']?.content, CI_WORKING, 'the uncommitted change, not the committed file');
    assert.equal(tree['.github/workflows/deploy.yml']?.content, DEPLOY);
    assert.equal(tree['secrets.env'], undefined, 'ignored files never leave the machine');
  });

  it('keeps the snapshot for the checkout retention (1,800 s), then the pruner may drop it', async (t) => {
    const h = await localRunsHost(t);
    const { body } = await uploadWorkTree(h, await makeWorkTree(t));
    const sha = String(body['sha']);
    const uploadedAt = h.clock.now();
    assert.equal(await h.snapshots.prune(uploadedAt + RETENTION_MS - 1), 0);
    assert.equal(await h.snapshots.hasCommit('acme/app', sha), true);
    assert.equal(await h.snapshots.prune(uploadedAt + RETENTION_MS), 1);
    assert.equal(await h.snapshots.hasCommit('acme/app', sha), false);
  });

  it('takes SVC_SNAPSHOT_RETENTION_SECS for the retention', async (t) => {
    const h = await localRunsHost(t, { SVC_SNAPSHOT_RETENTION_SECS: '3600' });
    const { body } = await uploadWorkTree(h, await makeWorkTree(t));
    assert.equal(await h.snapshots.prune(h.clock.now() + RETENTION_MS), 0);
    assert.equal(await h.snapshots.prune(h.clock.now() + 3600_000), 1);
    assert.equal(await h.snapshots.hasCommit('acme/app', String(body['sha'])), false);
  });

  it("refuses a bad repository name and a refused archive entry with the store's message", async (t) => {
    const h = await localRunsHost(t);
    const archive = await tarOf([{ name: 'ok.txt', content: 'ok' }]);
    const badName = await uploadBytes(h, archive, '?repository=not-a-repo');
    assert.equal(badName.status, 400);
    assert.equal(badName.body['code'], 'invalid_repository');
    assert.match(String(badName.body['message']), /repository "not-a-repo" is not owner\/repo/);

    const escaping = await uploadBytes(h, await tarOf([{ name: 'ok.txt', content: 'ok' }, { name: '../escape', content: 'x' }], { gzip: true }), '?repository=acme/app', 'application/gzip');
    assert.equal(escaping.status, 400);
    assert.equal(escaping.body['code'], 'snapshot_entry_refused');
    assert.match(String(escaping.body['message']), /"\.\.\/escape" is refused: a "\.\." segment would leave the tree/);

    const empty = await uploadBytes(h, Buffer.alloc(0), '?repository=acme/app', 'application/octet-stream');
    assert.equal(empty.status, 400);
    assert.match(String(empty.body['message']), /the snapshot archive is empty/);

    // A name longer than a file name may be is a bad name, not a failed mkdir (ENAMETOOLONG, a 500).
    const long = await uploadBytes(h, archive, `?repository=acme/${'r'.repeat(250)}`);
    assert.equal(long.status, 400);
    assert.equal(long.body['code'], 'invalid_repository');
    assert.match(String(long.body['message']), /each part 1 to 100 letters/);
  });

  it('leaves no empty repository behind when the first upload of a repository is refused', async (t) => {
    const h = await localRunsHost(t);
    const refused = await uploadBytes(h, await tarOf([{ name: '../escape', content: 'x' }]), '?repository=acme/never');
    assert.equal(refused.status, 400);
    const kept = await uploadBytes(h, await tarOf([{ name: 'ok.txt', content: 'ok' }]), '?repository=acme/app');
    assert.equal(kept.status, 201);
    const snapshots = dirname(h.snapshots.repositoryPath('acme/app'));
    assert.deepEqual(readdirSync(snapshots).sort(), ['app.git', 'never.git'], 'the refused upload made its repository');
    await h.snapshots.prune(h.clock.now());
    assert.deepEqual(readdirSync(snapshots), ['app.git'], 'the next prune removes the empty one, and only it');
    assert.equal(await h.snapshots.hasCommit('acme/app', String(kept.body['sha'])), true);
  });

  it('stops an archive that unpacks past 4 x SVC_SNAPSHOT_MAX_BYTES with 413, however small it is sent', async (t) => {
    const h = await localRunsHost(t, { SVC_SNAPSHOT_MAX_BYTES: '100000' });
    // 1 MB of zeros gzips to about 1 KB: well under the 100 kB upload limit, ten times past the unpacked one.
    const bomb = await tarOf([{ name: 'zeros.bin', content: Buffer.alloc(1024 * 1024) }], { gzip: true });
    assert.ok(bomb.length < 100_000, `${bomb.length} bytes sent`);
    const answer = await uploadBytes(h, bomb, '?repository=acme/app', 'application/gzip');
    assert.equal(answer.status, 413);
    assert.equal(answer.body['code'], 'snapshot_too_large');
    assert.match(String(answer.body['message']), /unpacks to more than 400000 bytes/);
    const fits = await uploadBytes(h, await tarOf([{ name: 'zeros.bin', content: Buffer.alloc(300_000) }], { gzip: true }), '?repository=acme/app', 'application/gzip');
    assert.equal(fits.status, 201, 'under the unpacked limit it is taken');
  });

  it('asks for the repository, refuses other bodies and other parameters, and wants the system token', async (t) => {
    const h = await localRunsHost(t);
    const archive = await tarOf([{ name: 'ok.txt', content: 'ok' }]);
    const missing = await uploadBytes(h, archive, '');
    assert.equal(missing.status, 400);
    assert.match(String(missing.body['message']), /repository is missing: POST \/api\/v1\/snapshots\?repository=owner\/repo/);
    const unknown = await uploadBytes(h, archive, '?repository=acme/app&repo=x');
    assert.equal(unknown.status, 400);
    assert.match(String(unknown.body['message']), /unknown querystring parameter 'repo'/);
    const json = await uploadBytes(h, Buffer.from('{"files":[]}'), '?repository=acme/app', 'application/json');
    assert.equal(json.status, 415);
    assert.match(String(json.body['message']), /send the snapshot as a tar or tar\.gz body/);
    const unauthenticated = await fetch(`${h.base}/api/v1/snapshots?repository=acme/app`, { method: 'POST', headers: { 'content-type': 'application/x-tar' }, body: archive });
    assert.equal(unauthenticated.status, 401);
  });

  it('stops an upload past SVC_SNAPSHOT_MAX_BYTES with 413, declared or not, and keeps nothing of it', async (t) => {
    const h = await localRunsHost(t, { SVC_SNAPSHOT_MAX_BYTES: '20000' });
    const big = await tarOf([{ name: 'big.bin', content: Buffer.alloc(64 * 1024, 'b') }]);
    const declared = await uploadBytes(h, big, '?repository=acme/app');
    assert.equal(declared.status, 413);
    assert.equal(declared.body['code'], 'body_too_large');
    assert.match(String(declared.body['message']), /larger than 20000 bytes.*SVC_SNAPSHOT_MAX_BYTES/);

    // Chunked, with no length to judge by: the count stops it on the way.
    const streamed = await new Promise<{ status: number; body: string }>((resolve, reject) => {
      const url = new URL(`${h.base}/api/v1/snapshots?repository=acme/app`);
      const req = request(url, { method: 'POST', headers: { ...h.auth, 'content-type': 'application/x-tar', 'transfer-encoding': 'chunked' } }, (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (text += chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text }));
      });
      req.on('error', reject);
      for (let offset = 0; offset < big.length; offset += 4096) req.write(big.subarray(offset, offset + 4096));
      req.end();
    });
    assert.equal(streamed.status, 413, streamed.body);
    assert.equal((JSON.parse(streamed.body) as { code: string }).code, 'body_too_large');

    const small = await uploadBytes(h, await tarOf([{ name: 'small.txt', content: 'fits' }]), '?repository=acme/app');
    assert.equal(small.status, 201, 'the server still takes uploads under the limit');
  });
});

describe('snapshots with a shared blob directory (SVC_BLOB_DIR): two nodes', () => {
  it('a snapshot uploaded to one node is submitted on another, which reads its workflow from the shared copy', async (t) => {
    const shared = await tempDir(t);
    const a = await localRunsHost(t, { SVC_BLOB_DIR: shared });
    const b = await localRunsHost(t, { SVC_BLOB_DIR: shared });
    const { status, body } = await uploadWorkTree(a, await makeWorkTree(t));
    assert.equal(status, 201, JSON.stringify(body));
    const sha = String(body['sha']);
    assert.ok(readdirSync(join(shared, 'git-snapshots', 'acme', 'app', 'commits')).includes(`${sha}.json`), 'published to the shared directory');
    assert.equal(existsSync(b.snapshots.repositoryPath('acme/app')), false, 'B holds nothing yet');
    const submitted = await submitRun(b, { repository: 'acme/app', snapshot: sha, workflow: '.github/workflows/ci.yml', job: 'build' });
    assert.equal(submitted.status, 201, JSON.stringify(submitted.body));
    const tree = await readCommitTree(b.snapshots.repositoryPath('acme/app'), sha);
    assert.equal(tree['.github/workflows/ci.yml']?.content, CI_WORKING, 'B materialised the commit A took');
  });
});
