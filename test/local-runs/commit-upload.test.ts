/**
 * `svc run`'s upload from a git work tree, the CLI's code against a real host (engine and
 * local-runs, SQLite) and real git: the run's commit is the user's (HEAD for a clean tree, a
 * commit of the working tree on top of it otherwise), with its history and tags, sent as packs
 * of only what the server lacks; the user's repository is left exactly as it was.
 */
import assert from 'node:assert/strict';
import { readdir, readFile, rm, symlink, writeFile, mkdir } from 'node:fs/promises';
import { userInfo } from 'node:os';
import { join } from 'node:path';
import { describe, it, type TestContext } from 'node:test';
import type { ServerConnection } from '../../core/kernel/cli/index.js';
import { findLocalRepository } from '../../plugins/local-runs/cli/local-repository.js';
import { describeUpload, uploadSnapshot, type SnapshotUploaded } from '../../plugins/local-runs/cli/upload-snapshot.js';
import { git, isolateGitConfig, readCommitTree, writeHistory } from '../snapshots/support.js';
import { tempDir } from '../support/services.js';
import { localRunsHost, submitRun, type LocalRunsHost } from './support.js';

isolateGitConfig();

const CI = 'on: push\njobs:\n  build:\n    runs-on: self-hosted\n    steps:\n      - run: echo build\n';

function connectionOf(h: LocalRunsHost): ServerConnection {
  return { baseUrl: h.base, token: h.auth.authorization.replace(/^Bearer /, '') };
}

/** A repository with 40 commits, tags v1.10..v1.40 (annotated) and light-20, light-40, the workflow and an ignore file committed on top. */
async function historyRepository(t: TestContext): Promise<string> {
  const dir = await tempDir(t);
  await git(dir, ['init', '-q', '-b', 'main']);
  await git(dir, ['remote', 'add', 'origin', 'https://github.com/acme/app.git']);
  await writeHistory(dir, { commits: 40, annotatedEvery: 10, lightweightEvery: 20 });
  await mkdir(join(dir, '.github', 'workflows'), { recursive: true });
  await writeFile(join(dir, '.github', 'workflows', 'ci.yml'), CI);
  await writeFile(join(dir, '.gitignore'), 'secrets.env\n');
  await git(dir, ['add', '-A']);
  await git(dir, ['commit', '-q', '-m', 'workflow']);
  await git(dir, ['config', 'user.name', 'Ada Lovelace']);
  await git(dir, ['config', 'user.email', 'ada@example.com']);
  return dir;
}

async function upload(h: LocalRunsHost, dir: string): Promise<Extract<SnapshotUploaded, { kind: 'commit' }>> {
  const repository = await findLocalRepository(dir);
  const uploaded = await uploadSnapshot(connectionOf(h), repository);
  assert.equal(uploaded.kind, 'commit', describeUpload(uploaded, repository));
  return uploaded as Extract<SnapshotUploaded, { kind: 'commit' }>;
}

/** What a user would notice changed in their repository: refs, index, objects, status. */
async function repositoryState(dir: string): Promise<string> {
  const objects = async (sub: string): Promise<string[]> => (await readdir(join(dir, '.git', 'objects', sub)).catch(() => [])).sort();
  return JSON.stringify({
    refs: await git(dir, ['for-each-ref']),
    head: await readFile(join(dir, '.git', 'HEAD'), 'utf8'),
    index: (await readFile(join(dir, '.git', 'index'))).toString('base64'),
    objects: [...(await objects('')), ...(await objects('pack'))],
    status: await git(dir, ['status', '--porcelain']),
  });
}

const store = (h: LocalRunsHost) => h.snapshots.repositoryPath('acme/app');

describe('svc run from a git work tree: the run commit is the user commit', () => {
  it('a clean tree runs HEAD itself, with its whole history and its tags; the second time the server has it', async (t) => {
    const h = await localRunsHost(t);
    const dir = await historyRepository(t);
    const head = (await git(dir, ['rev-parse', 'HEAD'])).trim();
    const before = await repositoryState(dir);
    const first = await upload(h, dir);
    assert.equal(first.sha, head, 'GITHUB_SHA is HEAD');
    assert.equal(first.dirty, false);
    assert.ok(first.objects > 80, `the whole history went: ${first.objects} objects`);
    assert.equal(first.tags, 6);
    assert.equal((await git(store(h), ['rev-list', '--count', head])).trim(), '41');
    const tags = (await h.snapshots.history('acme/app', head)).tags.map((tag) => tag.name).sort();
    assert.deepEqual(tags, ['light-20', 'light-40', 'v1.10', 'v1.20', 'v1.30', 'v1.40']);

    const second = await upload(h, dir);
    assert.deepEqual([second.sha, second.objects, second.bytes], [head, 0, 0], 'nothing travels');
    assert.match(describeUpload({ ...second }, await findLocalRepository(dir)), /^commit [0-9a-f]{12} of .* as acme\/app: main, clean; the server had it$/);
    assert.equal(await repositoryState(dir), before, 'the repository is untouched');

    // A new tag on an old commit travels alone, and a moved one is what the next run sees.
    await git(dir, ['tag', '-a', '-m', 'late', 'late-tag', 'HEAD~5']);
    const third = await upload(h, dir);
    assert.ok(third.objects <= 2, `only the tag object: ${third.objects}`);
    assert.ok((await h.snapshots.history('acme/app', head)).tags.some((tag) => tag.name === 'late-tag'));
  });

  it('a dirty tree runs a commit of the working tree on top of HEAD, by the user, without touching the repository', async (t) => {
    const h = await localRunsHost(t);
    const dir = await historyRepository(t);
    const head = (await git(dir, ['rev-parse', 'HEAD'])).trim();
    await upload(h, dir);
    await writeFile(join(dir, 'file-1.txt'), 'changed, not committed\n');
    await writeFile(join(dir, 'file-2.txt'), 'staged\n');
    await git(dir, ['add', 'file-2.txt']);
    await rm(join(dir, 'file-3.txt'));
    await writeFile(join(dir, 'untracked.txt'), 'new\n');
    await writeFile(join(dir, 'secrets.env'), 'TOKEN=never\n');
    await symlink('file-4.txt', join(dir, 'link'));
    const before = await repositoryState(dir);

    const sent = await upload(h, dir);
    assert.notEqual(sent.sha, head);
    assert.equal(sent.dirty, true);
    assert.ok(sent.objects > 0 && sent.objects <= 8, `only the new commit, its tree and the new blobs: ${sent.objects}`);
    assert.equal(await repositoryState(dir), before, 'no index, ref or object of the repository changed');
    const gitDir = store(h);
    const commit = await git(gitDir, ['cat-file', 'commit', sent.sha]);
    assert.match(commit, new RegExp(`^parent ${head}$`, 'm'));
    assert.match(commit, /^author Ada Lovelace <ada@example\.com> \d+ [+-]\d{4}$/m);
    assert.match(commit, /^committer Ada Lovelace <ada@example\.com> /m);
    assert.match(commit, /\n\nWorking tree of main \([0-9a-f]{12}\) with uncommitted changes\n/);
    const tree = await readCommitTree(gitDir, sent.sha);
    assert.equal(tree['file-1.txt']?.content, 'changed, not committed\n');
    assert.equal(tree['file-2.txt']?.content, 'staged\n');
    assert.equal(tree['file-3.txt'], undefined, 'deleted');
    assert.equal(tree['untracked.txt']?.content, 'new\n');
    assert.deepEqual(tree['link'], { mode: '120000', content: 'file-4.txt' });
    assert.equal(tree['secrets.env'], undefined, 'ignored files never leave the machine');
    assert.equal((await git(gitDir, ['rev-list', '--count', sent.sha])).trim(), '42');

    // The submission reads the workflow from that commit.
    const submitted = await submitRun(h, { repository: 'acme/app', snapshot: sent.sha, workflow: '.github/workflows/ci.yml' });
    assert.equal(submitted.status, 201, JSON.stringify(submitted.body));
  });

  it('a new commit after a run sends a small thin pack against what the server has', async (t) => {
    const h = await localRunsHost(t);
    const dir = await historyRepository(t);
    const first = await upload(h, dir);
    await writeFile(join(dir, 'file-5.txt'), 'next\n');
    await git(dir, ['commit', '-q', '-am', 'next']);
    const second = await upload(h, dir);
    assert.equal(second.sha, (await git(dir, ['rev-parse', 'HEAD'])).trim());
    assert.ok(second.objects <= 3 && second.bytes < first.bytes / 10, `${second.objects} objects, ${second.bytes} bytes after ${first.bytes}`);
  });

  it('before the first commit: a parentless commit of the files; detached HEAD: that commit', async (t) => {
    const h = await localRunsHost(t);
    const fresh = await tempDir(t);
    await git(fresh, ['init', '-q', '-b', 'main']);
    await mkdir(join(fresh, '.github', 'workflows'), { recursive: true });
    await writeFile(join(fresh, '.github', 'workflows', 'ci.yml'), CI);
    const unborn = await upload(h, fresh);
    assert.equal(unborn.head, undefined);
    const commit = await git(h.snapshots.repositoryPath('local/' + fresh.split('/').at(-1)), ['cat-file', 'commit', unborn.sha]);
    assert.doesNotMatch(commit, /^parent /m);
    assert.match(commit, new RegExp(`^author ${userInfo().username} <${userInfo().username}@localhost> `, 'm'), 'no identity configured: the login name');
    assert.match(commit, /Working tree before the first commit with uncommitted changes/);

    const dir = await historyRepository(t);
    await git(dir, ['checkout', '-q', 'v1.20']);
    const detached = await upload(h, dir);
    assert.equal(detached.sha, (await git(dir, ['rev-parse', 'v1.20^{commit}'])).trim());
    assert.equal(detached.branch, undefined);
    assert.deepEqual((await h.snapshots.history('acme/app', detached.sha)).tags.map((tag) => tag.name).sort(), ['light-20', 'v1.10', 'v1.20']);
  });

  it('a shallow clone sends what it has and its shallow commits; a submodule stays a gitlink; a nested repository stays out', async (t) => {
    const h = await localRunsHost(t);
    const origin = await historyRepository(t);
    const dir = join(await tempDir(t), 'app');
    await git('/', ['clone', '-q', '--depth=5', '--no-local', `file://${origin}`, dir]);
    await git(dir, ['remote', 'set-url', 'origin', 'https://github.com/acme/app.git']);
    await git(dir, ['update-index', '--add', '--cacheinfo', `160000,${'1'.repeat(40)},vendor/lib`]);
    await git(dir, ['-c', 'user.name=T', '-c', 'user.email=t@example.com', 'commit', '-q', '-m', 'a submodule']);
    // Not checked out, as a clone without --recurse-submodules leaves it: an empty directory.
    await mkdir(join(dir, 'vendor', 'lib'), { recursive: true });
    await mkdir(join(dir, 'nested'));
    await git(join(dir, 'nested'), ['init', '-q']);
    await writeFile(join(dir, 'nested', 'inside.txt'), 'x\n');
    await writeFile(join(dir, 'dirty.txt'), 'x\n');
    const sent = await upload(h, dir);
    assert.equal(sent.shallow, true);
    assert.equal(sent.warnings[0], "nested repository nested is not part of the run's commit (it has its own .git)");
    assert.match(sent.warnings[1] ?? '', /^the repository is a shallow clone: jobs get the history it has.*fetch-depth: 0.*git fetch --unshallow/);
    const gitDir = store(h);
    assert.equal((await git(gitDir, ['rev-list', '--count', sent.sha])).trim(), '7', 'the 5 commits of the clone, the submodule commit, the working tree');
    assert.deepEqual((await h.snapshots.history('acme/app', sent.sha)).shallow, [(await git(dir, ['rev-parse', 'HEAD~5'])).trim()]);
    const tree = await git(gitDir, ['ls-tree', sent.sha, 'vendor/lib', 'nested', 'dirty.txt']);
    assert.match(tree, /^160000 commit 1{40}\tvendor\/lib$/m);
    assert.doesNotMatch(tree, /nested/);
    assert.match(tree, /\tdirty\.txt$/m);
  });
});

describe('POST /api/v1/snapshots/negotiate and /pack: refusals', () => {
  const post = async (h: LocalRunsHost, path: string, body: string | Buffer, type: string) => {
    const response = await fetch(`${h.base}/api/v1/snapshots/${path}`, { method: 'POST', headers: { ...h.auth, 'content-type': type }, body });
    return { status: response.status, body: (await response.json()) as { code?: string; message?: string } };
  };
  const sha = 'a'.repeat(40);

  it('names the field of a bad negotiation and of a bad header line, refuses a body that is no pack', async (t) => {
    const h = await localRunsHost(t);
    const json = 'application/json';
    for (const [body, message] of [
      [{ repository: 'acme/app' }, /the negotiation body needs commit/],
      [{ repository: 'acme/app', commit: 'HEAD' }, /the negotiation body field commit must be a full object id/],
      [{ repository: 'acme/app', commit: sha, candidates: ['main'] }, /field candidates\.0 must be a full object id/],
      [{ repository: 'acme/app', commit: sha, extra: 1 }, /unknown field 'extra'/],
      [{ repository: 'acme', commit: sha }, /repository "acme" is not owner\/repo/],
      [{ repository: 'acme/app', commit: sha, tags: [{ name: 'bad name', object: sha }] }, /tag "bad name" may not hold spaces/],
    ] as const) {
      const answer = await post(h, 'negotiate', JSON.stringify(body), json);
      assert.equal(answer.status, 400, JSON.stringify(answer.body));
      assert.match(answer.body.message ?? '', message);
    }
    const type = 'application/x-svc-snapshot-pack';
    const noLine = await post(h, 'pack', Buffer.from('PACK'), type);
    assert.equal(noLine.status, 400);
    assert.match(noLine.body.message ?? '', /the body ended before its header line did/);
    const notJson = await post(h, 'pack', Buffer.from('{nope\nPACK'), type);
    assert.match(notJson.body.message ?? '', /the pack's header line is not JSON/);
    const badHeader = await post(h, 'pack', Buffer.from(`${JSON.stringify({ repository: 'acme/app', commit: sha, shallow: ['x'] })}\nPACK`), type);
    assert.match(badHeader.body.message ?? '', /the pack's header line field shallow\.0 must be a full object id/);
    const notPack = await post(h, 'pack', Buffer.from(`${JSON.stringify({ repository: 'acme/app', commit: sha })}\nnot a pack at all, no`), type);
    assert.equal(notPack.status, 400);
    assert.equal(notPack.body.code, 'snapshot_pack_invalid');
    const wrongType = await post(h, 'pack', Buffer.from('{}'), json);
    assert.equal(wrongType.status, 415);
    const unauthenticated = await fetch(`${h.base}/api/v1/snapshots/negotiate`, { method: 'POST', headers: { 'content-type': json }, body: JSON.stringify({ repository: 'acme/app', commit: sha }) });
    assert.equal(unauthenticated.status, 401);
  });

  it('stops a pack past SVC_SNAPSHOT_MAX_BYTES with 413 and keeps nothing of it', async (t) => {
    const h = await localRunsHost(t, { SVC_SNAPSHOT_MAX_BYTES: '4000' });
    const dir = await historyRepository(t);
    const repository = await findLocalRepository(dir);
    await assert.rejects(uploadSnapshot(connectionOf(h), repository), (error: unknown) => {
      assert.match(String((error as Error).message), /the snapshot pack is larger than 4000 bytes.*SVC_SNAPSHOT_MAX_BYTES.*\(HTTP 413\)/);
      return true;
    });
    const objects = await readdir(join(store(h), 'objects', 'pack')).catch(() => []);
    assert.deepEqual(objects, []);
    assert.equal(await git(store(h), ['for-each-ref']), '');
  });
});
