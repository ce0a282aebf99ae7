/**
 * A working tree goes through the whole snapshot path: the CLI packs it, the server's store
 * imports it, and what the bare repository holds (and what its tarball gives back) is exactly
 * the files a user would expect, with their modes.
 */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { chmod, lstat, mkdir, readFile, readlink, rm, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { describe, it, type TestContext } from 'node:test';
import { promisify } from 'node:util';
import { gitSnapshots } from '../../backends/git-snapshots/index.js';
import { createSilentLogger } from '../../core/kernel/index.js';
import type { SnapshotMeta, SnapshotStore } from '../../core/ports/index.js';
import { describeWorkingTree, packWorkingTree, type PackResult } from '../../plugins/local-runs/cli/snapshot/index.js';
import { ManualClock } from '../support/manual-clock.js';
import { tempDir } from '../support/services.js';
import { collect, git, isolateGitConfig, readCommitTree, streamOf, type TreeFile } from './support.js';

isolateGitConfig();
const execFileAsync = promisify(execFile);
const META: SnapshotMeta = { message: 'svc run', authorName: 'Dev', authorEmail: 'dev@example.com', timestamp: 1_800_000_000_000 };

/** A repository with every kind of file state `svc run` meets. */
async function makeWorkTree(t: TestContext): Promise<string> {
  const dir = await tempDir(t);
  await git(dir, ['init', '-q', '-b', 'main']);
  await mkdir(join(dir, 'src'));
  await mkdir(join(dir, 'bin'));
  await mkdir(join(dir, '.github', 'workflows'), { recursive: true });
  await writeFile(join(dir, 'README.md'), '# app\n');
  await writeFile(join(dir, 'src', 'app.js'), 'console.log(1);\n');
  await writeFile(join(dir, 'bin', 'run.sh'), '#!/bin/sh\n');
  await chmod(join(dir, 'bin', 'run.sh'), 0o755);
  await writeFile(join(dir, 'tool.sh'), 'echo tool\n');
  await writeFile(join(dir, 'deleted.txt'), 'gone soon\n');
  await writeFile(join(dir, '.github', 'workflows', 'ci.yml'), 'on: push\n');
  await writeFile(join(dir, '.gitignore'), '*.log\nsecret/\n');
  await symlink('README.md', join(dir, 'readme-link'));
  await git(dir, ['add', '-A']);
  // A submodule's gitlink, as `git submodule add` leaves it (no network needed).
  await git(dir, ['update-index', '--add', '--cacheinfo', `160000,${'1'.repeat(40)},vendor/lib`]);
  await git(dir, ['commit', '-q', '-m', 'initial']);
  await mkdir(join(dir, 'vendor', 'lib'), { recursive: true });
  await writeFile(join(dir, 'vendor', 'lib', 'inside.txt'), 'submodule content\n');
  // Uncommitted changes: modified, mode change, deleted, untracked, ignored, untracked symlink.
  await writeFile(join(dir, 'src', 'app.js'), 'console.log(2);\n');
  await chmod(join(dir, 'tool.sh'), 0o755);
  await rm(join(dir, 'deleted.txt'));
  await writeFile(join(dir, 'src', 'new.js'), 'export {};\n');
  await writeFile(join(dir, 'debug.log'), 'ignored\n');
  await mkdir(join(dir, 'secret'));
  await writeFile(join(dir, 'secret', 'key'), 'ignored too\n');
  await symlink('../missing', join(dir, 'src', 'dangling'));
  return dir;
}

const EXPECTED: Record<string, TreeFile> = {
  '.github/workflows/ci.yml': { mode: '100644', content: 'on: push\n' },
  '.gitignore': { mode: '100644', content: '*.log\nsecret/\n' },
  'README.md': { mode: '100644', content: '# app\n' },
  'bin/run.sh': { mode: '100755', content: '#!/bin/sh\n' },
  'readme-link': { mode: '120000', content: 'README.md' },
  'src/app.js': { mode: '100644', content: 'console.log(2);\n' },
  'src/dangling': { mode: '120000', content: '../missing' },
  'src/new.js': { mode: '100644', content: 'export {};\n' },
  'tool.sh': { mode: '100755', content: 'echo tool\n' },
};

async function pack(dir: string): Promise<{ archive: Buffer; result: PackResult }> {
  const out = new PassThrough();
  const [result, archive] = await Promise.all([packWorkingTree(dir, { out }), collect(out)]);
  return { archive, result };
}

async function newStore(t: TestContext): Promise<SnapshotStore> {
  return gitSnapshots.create({ dataDir: await tempDir(t), logger: createSilentLogger(), clock: new ManualClock() });
}

describe('snapshot round trip: working tree → tar.gz → bare repository', () => {
  it('stores exactly the files git would commit now, with modes and symlinks, and skips the submodule', async (t) => {
    const dir = await makeWorkTree(t);
    const { archive, result } = await pack(join(dir, 'src')); // from a subdirectory: still the whole tree
    assert.equal(result.root, await git(dir, ['rev-parse', '--show-toplevel']).then((s) => s.trim()));
    assert.equal(result.git, true);
    assert.deepEqual(result.submodules, ['vendor/lib']);
    assert.equal(result.warnings.length, 1);
    assert.match(result.warnings[0] ?? '', /submodule vendor\/lib .*skipped/);
    assert.equal(result.files, Object.keys(EXPECTED).length);

    const store = await newStore(t);
    const description = await describeWorkingTree(dir);
    const commit = await store.importTar('acme/app', streamOf(archive), { ...META, ...(description.head ? { parent: description.head } : {}) });
    const gitDir = store.repositoryPath('acme/app');
    assert.deepEqual(await readCommitTree(gitDir, commit.sha), EXPECTED);
    assert.equal(commit.files, result.files);
    assert.equal(commit.bytes, result.bytes);
    // The HEAD commit is not in the server's repository, so the snapshot has no parent.
    assert.doesNotMatch(await git(gitDir, ['cat-file', 'commit', commit.sha]), /^parent /m);
  });

  it('packs the same tree to the same bytes and the same commit', async (t) => {
    const dir = await makeWorkTree(t);
    const first = await pack(dir);
    const second = await pack(dir);
    assert.ok(first.archive.equals(second.archive), 'the archive is deterministic');
    const store = await newStore(t);
    const a = await store.importTar('acme/app', streamOf(first.archive), META);
    const b = await store.importTar('acme/app', streamOf(second.archive), META);
    assert.equal(a.sha, b.sha);
    await writeFile(join(dir, 'src', 'new.js'), 'export { changed };\n');
    const c = await store.importTar('acme/app', streamOf((await pack(dir)).archive), META);
    assert.notEqual(c.sha, a.sha);
  });

  it("serves back a tarball that extracts to the working tree's files", async (t) => {
    const dir = await makeWorkTree(t);
    const store = await newStore(t);
    const commit = await store.importTar('acme/app', streamOf((await pack(dir)).archive), META);
    const out = await tempDir(t);
    await writeFile(join(out, 'snapshot.tar.gz'), await collect(await store.archive('acme/app', commit.sha)));
    await mkdir(join(out, 'tree'));
    await execFileAsync('tar', ['-xzf', join(out, 'snapshot.tar.gz'), '-C', join(out, 'tree')]);
    for (const [path, expected] of Object.entries(EXPECTED)) {
      const target = join(out, 'tree', path);
      const stats = await lstat(target);
      if (expected.mode === '120000') {
        assert.ok(stats.isSymbolicLink(), `${path} is a symlink`);
        assert.equal(await readlink(target), expected.content);
      } else {
        assert.equal(await readFile(target, 'utf8'), expected.content, path);
        assert.equal((stats.mode & 0o100) !== 0, expected.mode === '100755', `${path} executable bit`);
      }
    }
    await assert.rejects(lstat(join(out, 'tree', 'debug.log')), /ENOENT/);
    await assert.rejects(lstat(join(out, 'tree', 'vendor', 'lib', 'inside.txt')), /ENOENT/);
  });

  it('packs every file of a directory outside git, except .git', async (t) => {
    const dir = await tempDir(t);
    await mkdir(join(dir, 'a', 'b'), { recursive: true });
    await mkdir(join(dir, '.git'));
    await writeFile(join(dir, '.git', 'not-a-repository'), 'x');
    await writeFile(join(dir, 'a', 'b', 'c.txt'), 'deep\n');
    await writeFile(join(dir, 'debug.log'), 'kept: no .gitignore applies outside git\n');
    await writeFile(join(dir, '.gitignore'), '*.log\n');
    await writeFile(join(dir, 'run'), '#!/bin/sh\n', { mode: 0o755 });
    await symlink('a/b/c.txt', join(dir, 'link'));
    const { archive, result } = await pack(dir);
    assert.equal(result.git, false);
    assert.equal(result.root, dir);
    const store = await newStore(t);
    const commit = await store.importTar('acme/plain', streamOf(archive), META);
    assert.deepEqual(await readCommitTree(store.repositoryPath('acme/plain'), commit.sha), {
      '.gitignore': { mode: '100644', content: '*.log\n' },
      'a/b/c.txt': { mode: '100644', content: 'deep\n' },
      'debug.log': { mode: '100644', content: 'kept: no .gitignore applies outside git\n' },
      link: { mode: '120000', content: 'a/b/c.txt' },
      run: { mode: '100755', content: '#!/bin/sh\n' },
    });
  });
});
