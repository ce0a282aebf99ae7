import assert from 'node:assert/strict';
import { chmod, mkdir, rm, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { PassThrough, Writable } from 'node:stream';
import { describe, it, type TestContext } from 'node:test';
import { InputError } from '../../../../core/kernel/index.js';
import { tempDir } from '../../../../test/support/services.js';
import { collect, git, isolateGitConfig, listTar } from '../../../../test/snapshots/support.js';
import { describeWorkingTree, LocalGitError, packWorkingTree, type PackResult } from './index.js';

isolateGitConfig();

async function repository(t: TestContext, files: Record<string, string> = { 'a.txt': 'a\n' }): Promise<string> {
  const dir = await tempDir(t);
  await git(dir, ['init', '-q', '-b', 'main']);
  for (const [path, content] of Object.entries(files)) {
    await mkdir(join(dir, path, '..'), { recursive: true });
    await writeFile(join(dir, path), content);
  }
  return dir;
}

async function commitAll(dir: string): Promise<string> {
  await git(dir, ['add', '-A']);
  await git(dir, ['commit', '-q', '-m', 'c']);
  return (await git(dir, ['rev-parse', 'HEAD'])).trim();
}

async function pack(dir: string): Promise<{ entries: Awaited<ReturnType<typeof listTar>>; result: PackResult }> {
  const out = new PassThrough();
  const [result, archive] = await Promise.all([packWorkingTree(dir, { out }), collect(out)]);
  return { entries: await listTar(archive), result };
}

describe('describeWorkingTree', () => {
  it('names HEAD and the branch, and says whether anything differs from HEAD', async (t) => {
    const dir = await repository(t, { 'a.txt': 'a\n', '.gitignore': '*.log\n' });
    const head = await commitAll(dir);
    assert.deepEqual(await describeWorkingTree(dir), { root: dir, head, branch: 'main', dirty: false });
    await writeFile(join(dir, 'debug.log'), 'ignored files do not count');
    assert.equal((await describeWorkingTree(dir)).dirty, false);
    await writeFile(join(dir, 'new.txt'), 'untracked files do');
    assert.equal((await describeWorkingTree(join(dir))).dirty, true);
    await git(dir, ['add', 'new.txt']);
    await git(dir, ['commit', '-q', '-m', 'new']);
    await writeFile(join(dir, 'a.txt'), 'changed\n');
    assert.equal((await describeWorkingTree(dir)).dirty, true);
  });

  it('answers from a subdirectory, when detached, before the first commit, and outside git', async (t) => {
    const dir = await repository(t, { 'sub/b.txt': 'b' });
    assert.deepEqual(await describeWorkingTree(join(dir, 'sub')), { root: dir, branch: 'main', dirty: true });
    const head = await commitAll(dir);
    await git(dir, ['checkout', '-q', '--detach']);
    assert.deepEqual(await describeWorkingTree(dir), { root: dir, head, dirty: false });
    const plain = await tempDir(t);
    assert.deepEqual(await describeWorkingTree(plain), { root: plain, dirty: true });
  });

  it("carries git's message when git refuses", async (t) => {
    const dir = await repository(t);
    await assert.rejects(describeWorkingTree(join(dir, '.git')), (error: unknown) => error instanceof LocalGitError && /work tree/.test(error.message));
  });
});

describe('packWorkingTree', () => {
  it('packs tracked, modified and untracked files, leaves ignored and deleted ones out', async (t) => {
    const dir = await repository(t, { 'keep.txt': 'v1', 'gone.txt': 'x', '.gitignore': '.env\nbuild/\n' });
    await commitAll(dir);
    await writeFile(join(dir, 'keep.txt'), 'v2');
    await writeFile(join(dir, '.env'), 'SECRET=1');
    await mkdir(join(dir, 'build'));
    await writeFile(join(dir, 'build', 'out.js'), 'x');
    await writeFile(join(dir, 'untracked.txt'), 'u');
    await rm(join(dir, 'gone.txt')); // deleted, not yet committed
    const { entries, result } = await pack(dir);
    assert.deepEqual(Object.keys(entries), ['.gitignore', 'keep.txt', 'untracked.txt']);
    assert.equal(entries['keep.txt']?.content, 'v2');
    assert.deepEqual(result, { root: dir, git: true, files: 3, bytes: '.env\nbuild/\n'.length + 'v2'.length + 'u'.length, submodules: [], warnings: [] });
  });

  it('packs many files, big (streamed) and small (read ahead), empty ones included, in path order', async (t) => {
    const big = 'b'.repeat(1024 * 1024 + 17);
    const files: Record<string, string> = { 'big.bin': big, 'empty.txt': '' };
    for (let i = 0; i < 40; i++) files[`many/${String(i).padStart(2, '0')}.txt`] = `file ${i}\n`;
    const dir = await repository(t, files);
    const { entries, result } = await pack(dir);
    assert.deepEqual(Object.keys(entries), Object.keys(files).sort());
    assert.equal(entries['big.bin']?.content, big);
    assert.equal(entries['empty.txt']?.content, '');
    assert.equal(entries['many/39.txt']?.content, 'file 39\n');
    assert.equal(result.bytes, Object.values(files).reduce((sum, content) => sum + content.length, 0));
  });

  it('writes sorted entries with fixed owners and times, and modes git would record', async (t) => {
    const dir = await repository(t, { 'z.txt': 'z', 'a/x.sh': '#!/bin/sh\n' });
    await chmod(join(dir, 'a', 'x.sh'), 0o750); // on disk, not yet in the index: the disk wins
    const { entries } = await pack(dir);
    assert.deepEqual(Object.keys(entries), ['a/x.sh', 'z.txt']);
    assert.equal(entries['a/x.sh']?.mode, 0o755);
    assert.equal(entries['z.txt']?.mode, 0o644);
  });

  it('does not read tracked paths through a directory that became a symlink', async (t) => {
    const dir = await repository(t, { 'conf/settings': 'tracked' });
    await commitAll(dir);
    const outside = await tempDir(t);
    await writeFile(join(outside, 'settings'), 'outside the work tree');
    await rm(join(dir, 'conf'), { recursive: true });
    await symlink(outside, join(dir, 'conf'));
    const { entries } = await pack(dir);
    assert.deepEqual(Object.keys(entries), ['conf']);
    assert.equal(entries['conf']?.type, 'symlink');
    assert.equal(entries['conf']?.linkname, outside);
  });

  it('skips nested repositories and submodules with a warning', async (t) => {
    const dir = await repository(t, { 'a.txt': 'a' });
    await commitAll(dir);
    await git(dir, ['update-index', '--add', '--cacheinfo', `160000,${'2'.repeat(40)},libs/sub`]);
    await mkdir(join(dir, 'nested'));
    await git(join(dir, 'nested'), ['init', '-q']);
    await writeFile(join(dir, 'nested', 'inner.txt'), 'inner');
    const { entries, result } = await pack(dir);
    assert.deepEqual(Object.keys(entries), ['a.txt']);
    assert.deepEqual(result.submodules, ['libs/sub', 'nested']);
    assert.deepEqual(result.warnings, [
      'submodule libs/sub is not part of the snapshot (submodules are skipped)',
      'nested repository nested is not part of the snapshot (it has its own .git)',
    ]);
  });

  it('refuses a path that is not a directory, and reports a failing output', async (t) => {
    const dir = await repository(t);
    await assert.rejects(packWorkingTree(join(dir, 'a.txt'), { out: new PassThrough() }), InputError);
    await assert.rejects(packWorkingTree(join(dir, 'missing'), { out: new PassThrough() }), InputError);
    const broken = new Writable({ write: (_chunk, _encoding, callback) => callback(new Error('disk full')) });
    await assert.rejects(packWorkingTree(dir, { out: broken }), /disk full/);
  });
});
