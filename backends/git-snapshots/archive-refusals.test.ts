import assert from 'node:assert/strict';
import { readdir } from 'node:fs/promises';
import { describe, it, type TestContext } from 'node:test';
import { gzipSync } from 'node:zlib';
import { createSilentLogger, InputError } from '../../core/kernel/index.js';
import type { SnapshotMeta, SnapshotStore } from '../../core/ports/index.js';
import { ManualClock } from '../../test/support/manual-clock.js';
import { tempDir } from '../../test/support/services.js';
import { git, streamOf, tarOf, type ArchiveEntry } from '../../test/snapshots/support.js';
import { createGitSnapshotStore } from './index.js';

const META: SnapshotMeta = { message: 'm', authorName: 'A', authorEmail: 'a@example.com', timestamp: 0 };
const OK: ArchiveEntry = { name: 'ok.txt', content: 'fine' };

async function newStore(t: TestContext): Promise<SnapshotStore> {
  return createGitSnapshotStore({ root: await tempDir(t), logger: createSilentLogger(), clock: new ManualClock() });
}

/** Imports and expects an InputError whose message names the entry and says why. */
async function assertRefused(store: SnapshotStore, archive: Buffer, entry: string, reason: RegExp): Promise<void> {
  await assert.rejects(store.importTar('acme/app', streamOf(archive), META), (error: unknown) => {
    assert.ok(error instanceof InputError, `an InputError, got ${String(error)}`);
    assert.equal(error.status, 400);
    assert.ok(error.message.includes(`"${entry}"`), `names the entry: ${error.message}`);
    assert.match(error.message, reason);
    return true;
  });
}

describe('git snapshot store: refused archives', () => {
  const cases: ReadonlyArray<{ readonly title: string; readonly entry: ArchiveEntry; readonly reason: RegExp }> = [
    { title: 'an absolute path', entry: { name: '/etc/passwd', content: 'x' }, reason: /absolute paths are not allowed/ },
    { title: 'a parent segment', entry: { name: '../x', content: 'x' }, reason: /"\.\." segment would leave the tree/ },
    { title: 'a parent segment deeper down', entry: { name: 'a/b/../../../x', content: 'x' }, reason: /"\.\." segment/ },
    { title: 'a .git path', entry: { name: '.git/config', content: '[core]' }, reason: /"\.git" path segment/ },
    { title: 'a nested .git in another case', entry: { name: 'sub/.GIT/hooks/pre-commit', content: 'x' }, reason: /"\.git" path segment/ },
    { title: 'a .git with a trailing dot', entry: { name: '.git./config', content: 'x' }, reason: /"\.git" path segment/ },
    { title: 'a .git directory entry', entry: { name: '.git/', type: 'directory' }, reason: /"\.git" path segment/ },
    { title: 'a hard link', entry: { name: 'hard', type: 'link', linkname: 'ok.txt' }, reason: /hard links are not allowed/ },
    { title: 'a character device', entry: { name: 'null', type: 'character-device', devmajor: 1, devminor: 3 }, reason: /device files/ },
    { title: 'a block device', entry: { name: 'sda', type: 'block-device', devmajor: 8, devminor: 0 }, reason: /device files/ },
    { title: 'a FIFO', entry: { name: 'pipe', type: 'fifo' }, reason: /FIFOs are not allowed/ },
    { title: 'a symlinked .gitmodules', entry: { name: '.gitmodules', type: 'symlink', linkname: '/etc/passwd' }, reason: /symlinked \.gitmodules/ },
    { title: 'a symlink without a target', entry: { name: 'dangling', type: 'symlink', linkname: '' }, reason: /no target/ },
  ];
  for (const { title, entry, reason } of cases) {
    it(`refuses ${title}, naming the entry`, async (t) => {
      const store = await newStore(t);
      await assertRefused(store, await tarOf([OK, entry]), entry.name, reason);
      await assertRefused(store, await tarOf([OK, entry], { gzip: true }), entry.name, reason);
    });
  }

  it('refuses a path given twice and a path that is both file and directory', async (t) => {
    const store = await newStore(t);
    await assertRefused(store, await tarOf([OK, { name: './ok.txt', content: 'other' }]), './ok.txt', /appears twice/);
    await assertRefused(store, await tarOf([OK, { name: 'ok.txt/inner', content: 'x' }]), 'ok.txt/inner', /is a file in the archive, not a directory/);
    await assertRefused(store, await tarOf([{ name: 'd/f', content: 'x' }, { name: 'd', content: 'x' }]), 'd', /also a directory/);
  });

  it('refuses what is not a tar archive, and an empty or cut one', async (t) => {
    const store = await newStore(t);
    const notTar = Buffer.alloc(2048, 'not a tar ');
    for (const [archive, reason] of [
      [notTar, /not a readable tar archive/],
      [gzipSync(notTar), /not a readable tar\.gz archive/],
      [Buffer.from([0x1f, 0x8b, 0x08, 0x00, 0x01]), /not a readable tar\.gz archive/],
      [(await tarOf([{ name: 'big', content: Buffer.alloc(10_000, 'x') }])).subarray(0, 4096), /not a readable tar archive.*end of data/i],
      [Buffer.alloc(0), /archive is empty/],
    ] as const) {
      await assert.rejects(store.importTar('acme/app', streamOf(archive), META), (error: unknown) => {
        assert.ok(error instanceof InputError, String(error));
        assert.match(error.message, reason);
        return true;
      });
    }
  });

  it('leaves no ref, crash report or commit behind after a refusal mid-stream', async (t) => {
    const store = await newStore(t);
    const big = { name: 'big.bin', content: Buffer.alloc(3 * 1024 * 1024, 'b') };
    await assertRefused(store, await tarOf([OK, big, { name: '../escape', content: 'x' }], { gzip: true }), '../escape', /leave the tree/);
    const gitDir = store.repositoryPath('acme/app');
    assert.equal(await git(gitDir, ['for-each-ref']), '');
    assert.deepEqual((await readdir(gitDir)).filter((name) => name.startsWith('fast_import_crash')), []);
    // The refused import never produced a commit: the first good import is the only one.
    const good = await store.importTar('acme/app', streamOf(await tarOf([OK])), META);
    assert.equal((await git(gitDir, ['rev-list', '--all'])).trim(), good.sha);
  });
});
