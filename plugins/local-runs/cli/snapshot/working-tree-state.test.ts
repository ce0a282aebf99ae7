import assert from 'node:assert/strict';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, it, type TestContext } from 'node:test';
import { tempDir } from '../../../../test/support/services.js';
import { git, isolateGitConfig } from '../../../../test/snapshots/support.js';
import { sampleCandidates } from './history-offer.js';
import { readWorkingTreeState } from './working-tree-state.js';

isolateGitConfig();

async function committed(t: TestContext): Promise<{ dir: string; head: string }> {
  const dir = await tempDir(t);
  await git(dir, ['init', '-q', '-b', 'main']);
  await writeFile(join(dir, 'a.txt'), 'a\n');
  await writeFile(join(dir, 'b.txt'), 'b\n');
  await git(dir, ['add', '-A']);
  await git(dir, ['commit', '-q', '-m', 'c']);
  return { dir, head: (await git(dir, ['rev-parse', 'HEAD'])).trim() };
}

describe('readWorkingTreeState', () => {
  it('a clean tree: HEAD and the branch, not dirty; a nested repository alone does not make it dirty', async (t) => {
    const { dir, head } = await committed(t);
    assert.deepEqual(await readWorkingTreeState(dir), { head, branch: 'main', dirty: false, nested: [] });
    await mkdir(join(dir, 'vendor', 'tool'), { recursive: true });
    await git(join(dir, 'vendor', 'tool'), ['init', '-q']);
    await writeFile(join(dir, 'vendor', 'tool', 'x'), 'x\n');
    assert.deepEqual(await readWorkingTreeState(dir), { head, branch: 'main', dirty: false, nested: ['vendor/tool'] });
  });

  it('a staged rename (two paths in one record), an untracked file deep in a new directory, a detached HEAD', async (t) => {
    const { dir, head } = await committed(t);
    await git(dir, ['mv', 'a.txt', 'renamed.txt']);
    const renamed = await readWorkingTreeState(dir);
    assert.equal(renamed.dirty, true);
    assert.deepEqual(renamed.nested, [], 'the original path is not read as an entry of its own');
    await git(dir, ['mv', 'renamed.txt', 'a.txt']);
    await mkdir(join(dir, 'new', 'deep'), { recursive: true });
    await writeFile(join(dir, 'new', 'deep', 'file.txt'), 'x\n');
    assert.deepEqual(await readWorkingTreeState(dir), { head, branch: 'main', dirty: true, nested: [] }, 'an untracked directory is not a nested repository');
    await git(dir, ['config', 'status.showUntrackedFiles', 'no']);
    assert.equal((await readWorkingTreeState(dir)).dirty, true, "the user's status.showUntrackedFiles does not hide untracked files");
    await git(dir, ['clean', '-fdq']);
    await git(dir, ['checkout', '-q', '--detach']);
    assert.deepEqual(await readWorkingTreeState(dir), { head, dirty: false, nested: [] });
  });

  it('before the first commit: no HEAD, the unborn branch', async (t) => {
    const dir = await tempDir(t);
    await git(dir, ['init', '-q', '-b', 'trunk']);
    await writeFile(join(dir, 'a.txt'), 'a\n');
    assert.deepEqual(await readWorkingTreeState(dir), { branch: 'trunk', dirty: true, nested: [] });
  });
});

describe('sampleCandidates', () => {
  it('offers the nearest 16, then every power of two, and the oldest', () => {
    const line = Array.from({ length: 100 }, (_, index) => `c${index}`);
    assert.deepEqual(sampleCandidates(line), [...line.slice(0, 16).map((_, index) => `c${index}`), 'c16', 'c32', 'c64', 'c99']);
    assert.deepEqual(sampleCandidates(['only']), ['only']);
    assert.deepEqual(sampleCandidates([]), []);
    assert.deepEqual(sampleCandidates(line.slice(0, 33)), [...line.slice(0, 17), 'c32']);
  });
});
