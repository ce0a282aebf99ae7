import assert from 'node:assert/strict';
import { describe, it, type TestContext } from 'node:test';
import { createSilentLogger, InputError, NotFoundError } from '../../core/kernel/index.js';
import type { SnapshotMeta, SnapshotStore } from '../../core/ports/index.js';
import { ManualClock } from '../../test/support/manual-clock.js';
import { tempDir } from '../../test/support/services.js';
import { streamOf, tarOf, type ArchiveEntry } from '../../test/snapshots/support.js';
import { createGitSnapshotStore } from './index.js';
import { treePath } from './read-file.js';

const META: SnapshotMeta = { message: 'm', authorName: 'A', authorEmail: 'a@example.com', timestamp: 0 };

const FILES: readonly ArchiveEntry[] = [
  { name: '.github/workflows/ci.yml', content: 'on: push\n' },
  { name: 'bin/run.sh', content: '#!/bin/sh\n', mode: 0o755 },
  { name: 'docs/ü ber*.md', content: 'grüße\n' },
  { name: 'docs/other.md', content: 'other\n' },
  { name: 'link.yml', type: 'symlink', linkname: '.github/workflows/ci.yml' },
  { name: 'empty.txt', content: '' },
  { name: 'dirlink', type: 'symlink', linkname: '.github' },
];

async function storeWithSnapshot(t: TestContext): Promise<{ store: SnapshotStore; sha: string }> {
  const store = createGitSnapshotStore({ root: await tempDir(t), logger: createSilentLogger(), clock: new ManualClock() });
  const { sha } = await store.importTar('acme/app', streamOf(await tarOf(FILES)), META);
  return { store, sha };
}

describe('git snapshot store: readFile', () => {
  it('reads a file of the commit as UTF-8 text, executables and empty files included', async (t) => {
    const { store, sha } = await storeWithSnapshot(t);
    assert.equal(await store.readFile('acme/app', sha, '.github/workflows/ci.yml'), 'on: push\n');
    assert.equal(await store.readFile('acme/app', sha, './.github//workflows/ci.yml'), 'on: push\n', './ and doubled slashes are fine');
    assert.equal(await store.readFile('acme/app', sha, 'bin/run.sh'), '#!/bin/sh\n');
    assert.equal(await store.readFile('acme/app', sha, 'empty.txt'), '');
    assert.equal(await store.readFile('acme/app', sha, 'docs/ü ber*.md'), 'grüße\n');
  });

  it('answers undefined for a path that is not a regular file of the commit', async (t) => {
    const { store, sha } = await storeWithSnapshot(t);
    assert.equal(await store.readFile('acme/app', sha, 'missing.yml'), undefined);
    assert.equal(await store.readFile('acme/app', sha, '.github/workflows'), undefined, 'a directory');
    assert.equal(await store.readFile('acme/app', sha, 'link.yml'), undefined, 'a symlink is not followed');
    assert.equal(await store.readFile('acme/app', sha, 'docs/*.md'), undefined, 'no glob matches another file');
    assert.equal(await store.readFile('acme/app', sha, 'bin/run.sh/x'), undefined);
    assert.equal(await store.readFile('acme/app', sha, 'dirlink/workflows/ci.yml'), undefined, 'no symlinked directory is followed');
    assert.equal(await store.readFile('acme/app', sha, 'docs/other.mdx'), undefined, 'no prefix matches');
    assert.equal(await store.readFile('acme/app', sha, 'docs/other.m'), undefined);
  });

  it('reads what later imports added, with one reader process per repository', async (t) => {
    const { store, sha } = await storeWithSnapshot(t);
    assert.equal(await store.readFile('acme/app', sha, 'docs/other.md'), 'other\n');
    const next = await store.importTar('acme/app', streamOf(await tarOf([{ name: 'docs/other.md', content: 'changed\n' }])), { ...META, parent: sha });
    const [before, after, both] = await Promise.all([
      store.readFile('acme/app', sha, 'docs/other.md'),
      store.readFile('acme/app', next.sha, 'docs/other.md'),
      store.hasCommit('acme/app', next.sha),
    ]);
    assert.deepEqual([before, after, both], ['other\n', 'changed\n', true]);
  });

  it('refuses absolute paths and ".." segments, and an id that is not a full object id', async (t) => {
    const { store, sha } = await storeWithSnapshot(t);
    for (const path of ['/etc/passwd', '../x', 'a/../../x', '..', 'C:\\x', '', './']) {
      await assert.rejects(store.readFile('acme/app', sha, path), (error: unknown) => {
        assert.ok(error instanceof InputError, `${JSON.stringify(path)}: ${String(error)}`);
        assert.equal(error.code, 'invalid_path');
        return true;
      });
    }
    await assert.rejects(store.readFile('acme/app', 'HEAD', 'x'), (error: unknown) => error instanceof InputError && error.code === 'invalid_object_id');
    await assert.rejects(store.readFile('acme', sha, 'x'), (error: unknown) => error instanceof InputError && error.code === 'invalid_repository');
  });

  it('is a NotFoundError for a commit or repository the store does not hold', async (t) => {
    const { store, sha } = await storeWithSnapshot(t);
    await assert.rejects(store.readFile('acme/app', 'f'.repeat(40), 'x'), (error: unknown) => error instanceof NotFoundError && error.code === 'snapshot_not_found');
    await assert.rejects(store.readFile('acme/other', sha, 'x'), NotFoundError);
  });
});

describe('tree paths', () => {
  it('normalises ./, . segments and doubled slashes', () => {
    assert.equal(treePath('./a//b/./c.yml'), 'a/b/c.yml');
    assert.equal(treePath('..a/b..'), '..a/b..', 'names that merely contain dots are fine');
  });
});
