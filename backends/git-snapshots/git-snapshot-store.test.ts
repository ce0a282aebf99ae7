import assert from 'node:assert/strict';
import { readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { describe, it, type TestContext } from 'node:test';
import { gunzipSync } from 'node:zlib';
import { createSilentLogger, InputError, NotFoundError } from '../../core/kernel/index.js';
import type { SnapshotMeta, SnapshotStore } from '../../core/ports/index.js';
import { ManualClock } from '../../test/support/manual-clock.js';
import { tempDir } from '../../test/support/services.js';
import { collect, git, listTar, readCommitTree, streamOf, tarOf, type ArchiveEntry } from '../../test/snapshots/support.js';
import { createGitSnapshotStore } from './index.js';

const META: SnapshotMeta = { message: 'svc run snapshot', authorName: 'Ada', authorEmail: 'ada@example.com', timestamp: 1_800_000_000_123 };

const FILES: readonly ArchiveEntry[] = [
  { name: './', type: 'directory' },
  { name: './README.md', content: '# hello\n' },
  { name: './bin/', type: 'directory', mode: 0o755 },
  { name: './bin/run.sh', content: '#!/bin/sh\necho hi\n', mode: 0o755 },
  { name: './docs/link.md', type: 'symlink', linkname: '../README.md' },
  { name: './.github/workflows/ci.yml', content: 'on: push\n' },
];

async function newStore(t: TestContext, clock = new ManualClock()): Promise<{ store: SnapshotStore; root: string }> {
  const root = await tempDir(t);
  return { store: createGitSnapshotStore({ root, logger: createSilentLogger(), clock }), root };
}

describe('git snapshot store: import', () => {
  it('stores files, executables and symlinks as one commit with their modes', async (t) => {
    const { store, root } = await newStore(t);
    const commit = await store.importTar('acme/app', streamOf(await tarOf(FILES)), META);
    const gitDir = store.repositoryPath('acme/app');
    assert.equal(gitDir, join(root, 'acme', 'app.git'));
    assert.deepEqual(await readCommitTree(gitDir, commit.sha), {
      '.github/workflows/ci.yml': { mode: '100644', content: 'on: push\n' },
      'README.md': { mode: '100644', content: '# hello\n' },
      'bin/run.sh': { mode: '100755', content: '#!/bin/sh\necho hi\n' },
      'docs/link.md': { mode: '120000', content: '../README.md' },
    });
    assert.equal(commit.files, 4);
    assert.equal(commit.bytes, 8 + 18 + 12 + 9);
    assert.equal(commit.tree, (await git(gitDir, ['rev-parse', `${commit.sha}^{tree}`])).trim());
    assert.equal(await store.hasCommit('acme/app', commit.sha), true);
  });

  it('writes author, committer, date and message from the meta', async (t) => {
    const { store } = await newStore(t);
    const commit = await store.importTar('acme/app', streamOf(await tarOf(FILES)), META);
    const raw = await git(store.repositoryPath('acme/app'), ['cat-file', 'commit', commit.sha]);
    assert.match(raw, /^author Ada <ada@example\.com> 1800000000 \+0000$/m);
    assert.match(raw, /^committer Ada <ada@example\.com> 1800000000 \+0000$/m);
    assert.doesNotMatch(raw, /^parent /m);
    assert.ok(raw.endsWith('\n\nsvc run snapshot\n'));
  });

  it('gives the same commit for the same files and meta, whatever the order, compression or repository', async (t) => {
    const { store } = await newStore(t);
    const plain = await store.importTar('acme/app', streamOf(await tarOf(FILES)), META);
    const gzipped = await store.importTar('acme/app', streamOf(await tarOf(FILES, { gzip: true })), META);
    const reordered = await store.importTar('other/repo', streamOf(await tarOf([...FILES].reverse(), { gzip: true })), META);
    assert.equal(gzipped.sha, plain.sha);
    assert.equal(reordered.sha, plain.sha);
    const later = await store.importTar('acme/app', streamOf(await tarOf(FILES)), { ...META, timestamp: META.timestamp + 1000 });
    assert.notEqual(later.sha, plain.sha, 'another time is another commit');
    assert.equal(later.tree, plain.tree);
  });

  it('builds on the parent when the repository has it, and only then', async (t) => {
    const { store } = await newStore(t);
    const first = await store.importTar('acme/app', streamOf(await tarOf(FILES)), META);
    const second = await store.importTar('acme/app', streamOf(await tarOf([{ name: 'only.txt', content: 'x' }])), { ...META, parent: first.sha });
    const gitDir = store.repositoryPath('acme/app');
    assert.equal((await git(gitDir, ['rev-parse', `${second.sha}^`])).trim(), first.sha);
    assert.deepEqual(Object.keys(await readCommitTree(gitDir, second.sha)), ['only.txt'], "the parent's files do not leak in");
    const orphan = await store.importTar('acme/app', streamOf(await tarOf(FILES)), { ...META, parent: 'f'.repeat(40) });
    assert.doesNotMatch(await git(gitDir, ['cat-file', 'commit', orphan.sha]), /^parent /m);
    assert.equal(orphan.sha, first.sha, 'an unknown parent is left out, as if none was given');
  });

  it('keeps long, quoted and non-ASCII paths exactly', async (t) => {
    const { store } = await newStore(t);
    const long = `${'deep/'.repeat(40)}file.txt`;
    const names = [long, 'with space.txt', '"quoted".txt', 'back\\slash', 'new\nline', 'ünïcödé/ファイル.txt'];
    const commit = await store.importTar('acme/app', streamOf(await tarOf(names.map((name) => ({ name, content: name })))), META);
    const tree = await readCommitTree(store.repositoryPath('acme/app'), commit.sha);
    assert.deepEqual(Object.keys(tree).sort(), [...names].sort());
    for (const name of names) assert.equal(tree[name]?.content, name);
  });

  it('streams large files through without holding them', async (t) => {
    const { store } = await newStore(t);
    const big = Buffer.alloc(5 * 1024 * 1024 + 7, 'x');
    big.write('start', 0);
    const commit = await store.importTar('acme/app', streamOf(await tarOf([{ name: 'big.bin', content: big }], { gzip: true }), 64 * 1024), META);
    assert.equal(commit.bytes, big.length);
    const stored = await git(store.repositoryPath('acme/app'), ['cat-file', '-s', `${commit.sha}:big.bin`]);
    assert.equal(Number(stored.trim()), big.length);
  });

  it('stores an empty archive as an empty tree', async (t) => {
    const { store } = await newStore(t);
    const commit = await store.importTar('acme/app', streamOf(await tarOf([])), META);
    assert.equal(commit.files, 0);
    assert.equal(commit.tree, '4b825dc642cb6eb9a060e54bf8d69288fbee4904');
  });

  it('creates the bare repository on first use with hooks off, no auto gc and no reflogs', async (t) => {
    const { store } = await newStore(t);
    assert.equal(await store.hasCommit('acme/app', 'a'.repeat(40)), false, 'no repository yet is no commit');
    await store.importTar('acme/app', streamOf(await tarOf(FILES)), META);
    const gitDir = store.repositoryPath('acme/app');
    const config = await readFile(join(gitDir, 'config'), 'utf8');
    assert.match(config, /bare = true/);
    assert.match(config, /hooksPath = \/dev\/null/);
    assert.match(config, /auto = 0/);
    assert.match(config, /logAllRefUpdates = false/);
    assert.deepEqual(await readdir(join(gitDir, 'refs')), ['heads', 'svc', 'tags']);
    assert.deepEqual(await readdir(join(store.repositoryPath('acme/app'), '..')), ['app.git'], 'no temporary directory left');
  });

  it('refuses repository names that are not owner/repo', async (t) => {
    const { store } = await newStore(t);
    for (const name of ['acme', 'acme/app/x', '../app', 'acme/..', './app', 'acme/a b', 'acme/', '/app', 'ac~me/app']) {
      assert.throws(() => store.repositoryPath(name), (error: unknown) => error instanceof InputError && error.message.includes(`"${name}"`), name);
      await assert.rejects(store.importTar(name, streamOf(Buffer.from('x')), META), InputError, name);
    }
    assert.equal(store.repositoryPath('a-b_c/.d.e'), join(store.repositoryPath('a-b_c/x'), '..', '.d.e.git'));
  });

  it('refuses meta that would break the commit header', async (t) => {
    const { store } = await newStore(t);
    const archive = await tarOf(FILES);
    for (const meta of [{ authorName: 'A <b>' }, { authorEmail: 'a@b>\nparent x' }, { timestamp: Number.NaN }, { parent: 'HEAD' }]) {
      await assert.rejects(store.importTar('acme/app', streamOf(archive), { ...META, ...meta }), InputError, JSON.stringify(meta));
    }
  });

  it('passes errors of the upload stream through unchanged', async (t) => {
    const { store } = await newStore(t);
    const archive = await tarOf(FILES);
    const cut = new Error('connection reset');
    const upload = Readable.from(
      (async function* () {
        yield archive.subarray(0, 1024);
        throw cut;
      })(),
    );
    await assert.rejects(store.importTar('acme/app', upload, META), (error: unknown) => error === cut);
    assert.equal(await git(store.repositoryPath('acme/app'), ['for-each-ref']), '', 'no ref left behind');
  });
});

describe('git snapshot store: hasCommit and archive', () => {
  it('answers hasCommit for commits, not for other objects or unknown ids', async (t) => {
    const { store } = await newStore(t);
    const commit = await store.importTar('acme/app', streamOf(await tarOf(FILES)), META);
    assert.equal(await store.hasCommit('acme/app', commit.sha), true);
    assert.equal(await store.hasCommit('acme/app', commit.tree), false, 'a tree is not a commit');
    assert.equal(await store.hasCommit('acme/app', '0'.repeat(40)), false);
    assert.equal(await store.hasCommit('acme/other', commit.sha), false);
    await assert.rejects(store.hasCommit('acme/app', 'HEAD'), InputError);
    await assert.rejects(store.hasCommit('acme/app', commit.sha.slice(0, 12)), InputError);
  });

  it('archives a commit as a tar.gz that imports back to the same tree', async (t) => {
    const { store } = await newStore(t);
    const commit = await store.importTar('acme/app', streamOf(await tarOf(FILES)), META);
    const archive = await collect(await store.archive('acme/app', commit.sha));
    assert.deepEqual([...archive.subarray(0, 2)], [0x1f, 0x8b], 'gzip');
    assert.ok(gunzipSync(archive).length > 0);
    const again = await store.importTar('mirror/app', streamOf(archive), META);
    assert.equal(again.tree, commit.tree);
    assert.equal(again.sha, commit.sha);
  });

  it("ignores the host's git configuration", async (t) => {
    const home = await tempDir(t);
    await writeFile(join(home, '.gitconfig'), '[tar]\n\tumask = 0\n[user]\n\tname = Host\n');
    const saved = { HOME: process.env['HOME'], GIT_CONFIG_GLOBAL: process.env['GIT_CONFIG_GLOBAL'] };
    process.env['HOME'] = home;
    process.env['GIT_CONFIG_GLOBAL'] = join(home, '.gitconfig');
    t.after(() => {
      for (const [key, value] of Object.entries(saved)) {
        if (value === undefined) delete process.env[key];
        else process.env[key] = value;
      }
    });
    const { store } = await newStore(t);
    const commit = await store.importTar('acme/app', streamOf(await tarOf(FILES)), META);
    const entries = await listTar(await collect(await store.archive('acme/app', commit.sha)));
    // git's default tar.umask (002); the host's umask 0 would make them 0666 and 0777.
    assert.equal(entries['README.md']?.mode, 0o664);
    assert.equal(entries['bin/run.sh']?.mode, 0o775);
  });

  it('refuses to archive a commit it does not have', async (t) => {
    const { store } = await newStore(t);
    await assert.rejects(store.archive('acme/app', 'a'.repeat(40)), NotFoundError);
    await store.importTar('acme/app', streamOf(await tarOf(FILES)), META);
    await assert.rejects(store.archive('acme/app', 'a'.repeat(40)), (error: unknown) => error instanceof NotFoundError && /a{40} is not in acme\/app/.test(error.message));
  });
});
