import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, it, type TestContext } from 'node:test';
import { createSilentLogger, InputError, NotFoundError } from '../../core/kernel/index.js';
import type { SnapshotMeta, SnapshotStore } from '../../core/ports/index.js';
import { ManualClock } from '../../test/support/manual-clock.js';
import { tempDir } from '../../test/support/services.js';
import { git, readCommitTree, streamOf, tarOf } from '../../test/snapshots/support.js';
import { createGitSnapshotStore } from './index.js';

const HOUR = 60 * 60 * 1000;
const DAY = 24 * HOUR;
const META: SnapshotMeta = { message: 'm', authorName: 'A', authorEmail: 'a@example.com', timestamp: 0 };

async function newStore(t: TestContext, clock: ManualClock): Promise<SnapshotStore> {
  return createGitSnapshotStore({ root: await tempDir(t), logger: createSilentLogger(), clock, importRetentionMs: HOUR });
}

async function importFile(store: SnapshotStore, repository: string, content: string): Promise<string> {
  return (await store.importTar(repository, streamOf(await tarOf([{ name: 'f.txt', content }])), META)).sha;
}

async function snapshotRefs(store: SnapshotStore, repository: string): Promise<string[]> {
  const text = await git(store.repositoryPath(repository), ['for-each-ref', '--format=%(refname)']);
  return text.split('\n').filter((line) => line !== '');
}

describe('git snapshot store: retain and prune', () => {
  it('keeps an imported commit for the import grace period, then prunes it', async (t) => {
    const clock = new ManualClock();
    const store = await newStore(t, clock);
    const sha = await importFile(store, 'acme/app', 'one');
    assert.deepEqual(await snapshotRefs(store, 'acme/app'), [`refs/svc/snapshots/${sha}/${clock.now() + HOUR}`]);
    assert.equal(await store.prune(clock.now() + HOUR - 1), 0);
    assert.equal(await store.hasCommit('acme/app', sha), true);
    assert.equal(await store.prune(clock.now() + HOUR), 1);
    assert.equal(await store.hasCommit('acme/app', sha), false, 'gc --prune=now removed the commit');
    assert.equal(existsSync(store.repositoryPath('acme/app')), false, 'and the repository, empty now');
    assert.equal(await importFile(store, 'acme/app', 'again'), await importFile(store, 'acme/app', 'again'), 'a later upload makes it again');
  });

  it('retains an import until the date it asks for, in the import itself', async (t) => {
    const clock = new ManualClock();
    const store = await newStore(t, clock);
    const until = clock.now() + 30 * 60 * 1000 + 0.5;
    const tar = await tarOf([{ name: 'f.txt', content: 'asked' }]);
    const { sha } = await store.importTar('acme/app', streamOf(tar), { ...META, retainUntil: until });
    assert.deepEqual(await snapshotRefs(store, 'acme/app'), [`refs/svc/snapshots/${sha}/${Math.ceil(until)}`], 'not the import grace period');
    await assert.rejects(store.importTar('acme/app', streamOf(tar), { ...META, retainUntil: Number.NaN }), (error: Error) => error instanceof InputError && /retention expiry NaN/.test(error.message));
  });

  it('retains until the later of the dates asked for, one ref per commit', async (t) => {
    const clock = new ManualClock();
    const store = await newStore(t, clock);
    const start = clock.now();
    const sha = await importFile(store, 'acme/app', 'one');
    await store.retain('acme/app', sha, start + 10 * DAY);
    await store.retain('acme/app', sha, start + 2 * DAY); // does not shorten
    assert.deepEqual(await snapshotRefs(store, 'acme/app'), [`refs/svc/snapshots/${sha}/${start + 10 * DAY}`]);
    assert.equal(await store.prune(start + 5 * DAY), 0);
    assert.equal(await store.hasCommit('acme/app', sha), true);
    // An import of the same files again (same sha) must not shorten the retention either.
    assert.equal(await importFile(store, 'acme/app', 'one'), sha);
    assert.deepEqual(await snapshotRefs(store, 'acme/app'), [`refs/svc/snapshots/${sha}/${start + 10 * DAY}`]);
    assert.equal(await store.prune(start + 10 * DAY), 1);
    assert.equal(await store.hasCommit('acme/app', sha), false);
  });

  it('prunes only what expired, across repositories, and keeps retained parents', async (t) => {
    const clock = new ManualClock();
    const store = await newStore(t, clock);
    const start = clock.now();
    const keep = await importFile(store, 'acme/app', 'keep');
    const drop = await importFile(store, 'acme/app', 'drop');
    const other = await importFile(store, 'other/lib', 'other');
    const child = (await store.importTar('acme/app', streamOf(await tarOf([{ name: 'c', content: 'c' }])), { ...META, parent: drop })).sha;
    await store.retain('acme/app', keep, start + 3 * DAY);
    await store.retain('acme/app', child, start + 3 * DAY);
    await store.retain('other/lib', other, start + DAY);
    assert.equal(await store.prune(start + 2 * DAY), 2, 'drop in acme/app, other in other/lib');
    assert.equal(await store.hasCommit('acme/app', keep), true);
    assert.equal(await store.hasCommit('acme/app', child), true);
    assert.equal(await store.hasCommit('acme/app', drop), true, 'still the parent of a retained snapshot');
    assert.equal(await store.hasCommit('other/lib', other), false);
    assert.deepEqual(await readCommitTree(store.repositoryPath('acme/app'), keep), { 'f.txt': { mode: '100644', content: 'keep' } });
  });

  it('runs gc only when something was deleted', async (t) => {
    const clock = new ManualClock();
    const store = await newStore(t, clock);
    const sha = await importFile(store, 'acme/app', 'one');
    await store.retain('acme/app', sha, clock.now() + DAY);
    const packs = join(store.repositoryPath('acme/app'), 'objects', 'pack');
    assert.equal(await store.prune(clock.now()), 0);
    assert.deepEqual(await readdir(packs), [], 'no gc: the objects are still loose');
    await importFile(store, 'acme/app', 'two');
    assert.equal(await store.prune(clock.now() + 2 * HOUR), 1);
    assert.ok((await readdir(packs)).some((name) => name.endsWith('.pack')), 'gc packed what remains');
    assert.equal(await store.hasCommit('acme/app', sha), true);
  });

  it('prunes nothing when there are no repositories yet', async (t) => {
    const store = await newStore(t, new ManualClock());
    assert.equal(await store.prune(Date.now()), 0);
  });

  it('refuses to retain a commit the repository does not have, or a bad date', async (t) => {
    const clock = new ManualClock();
    const store = await newStore(t, clock);
    await assert.rejects(store.retain('acme/app', 'a'.repeat(40), clock.now() + DAY), NotFoundError);
    const sha = await importFile(store, 'acme/app', 'one');
    await assert.rejects(store.retain('acme/app', 'b'.repeat(40), clock.now() + DAY), NotFoundError);
    await assert.rejects(store.retain('acme/app', sha, Number.NaN), InputError);
    await assert.rejects(store.retain('acme/app', 'main', clock.now()), InputError);
  });
});

describe('git snapshot store: retention without git work', () => {
  it('forgets what it knew at prune: a pruned commit cannot be retained again', async (t) => {
    const clock = new ManualClock();
    const store = await newStore(t, clock);
    const sha = await importFile(store, 'acme/app', 'one');
    await store.retain('acme/app', sha, clock.now() + HOUR - 1); // already kept that long
    assert.deepEqual(await snapshotRefs(store, 'acme/app'), [`refs/svc/snapshots/${sha}/${clock.now() + HOUR}`]);
    assert.equal(await store.prune(clock.now() + HOUR), 1);
    await assert.rejects(store.retain('acme/app', sha, clock.now() + HOUR - 1), NotFoundError);
    await assert.rejects(store.readFile('acme/app', sha, 'f.txt'), NotFoundError);
  });

  it('extends a retention it wrote itself to exactly one later ref', async (t) => {
    const clock = new ManualClock();
    const store = await newStore(t, clock);
    const sha = await importFile(store, 'acme/app', 'one');
    await store.retain('acme/app', sha, clock.now() + DAY);
    await store.retain('acme/app', sha, clock.now() + 2 * DAY);
    await store.retain('acme/app', sha, clock.now() + DAY);
    assert.deepEqual(await snapshotRefs(store, 'acme/app'), [`refs/svc/snapshots/${sha}/${clock.now() + 2 * DAY}`]);
  });

  it('finds the refs another store instance wrote on the same root', async (t) => {
    const clock = new ManualClock();
    const root = await tempDir(t);
    const first = createGitSnapshotStore({ root, logger: createSilentLogger(), clock, importRetentionMs: HOUR });
    const sha = await importFile(first, 'acme/app', 'one');
    await first.retain('acme/app', sha, clock.now() + DAY);
    const second = createGitSnapshotStore({ root, logger: createSilentLogger(), clock, importRetentionMs: HOUR });
    await second.retain('acme/app', sha, clock.now() + 2 * DAY);
    assert.deepEqual(await snapshotRefs(second, 'acme/app'), [`refs/svc/snapshots/${sha}/${clock.now() + 2 * DAY}`]);
  });

  it('after a prune listed the refs, imports and retains keep one ref per commit without listing again', async (t) => {
    const clock = new ManualClock();
    const root = await tempDir(t);
    const store = createGitSnapshotStore({ root, logger: createSilentLogger(), clock, importRetentionMs: HOUR });
    const old = await importFile(store, 'acme/app', 'old');
    assert.equal(await store.prune(clock.now()), 0, 'nothing expired, but the refs are now known');
    const tar = await tarOf([{ name: 'f.txt', content: 'new' }]);
    const fresh = (await store.importTar('acme/app', streamOf(tar), { ...META, retainUntil: clock.now() + DAY })).sha;
    await store.importTar('acme/app', streamOf(tar), { ...META, retainUntil: clock.now() + 2 * DAY });
    await store.retain('acme/app', old, clock.now() + DAY);
    assert.deepEqual((await snapshotRefs(store, 'acme/app')).sort(), [`refs/svc/snapshots/${fresh}/${clock.now() + 2 * DAY}`, `refs/svc/snapshots/${old}/${clock.now() + DAY}`].sort());
    // Another writer on the same root (unsupported, but it must not break an import): the same ref twice is no failure.
    const other = createGitSnapshotStore({ root, logger: createSilentLogger(), clock, importRetentionMs: HOUR });
    const third = await tarOf([{ name: 'f.txt', content: 'third' }]);
    const { sha } = await other.importTar('acme/app', streamOf(third), { ...META, retainUntil: clock.now() + DAY });
    await store.importTar('acme/app', streamOf(third), { ...META, retainUntil: clock.now() + DAY });
    assert.ok((await snapshotRefs(store, 'acme/app')).includes(`refs/svc/snapshots/${sha}/${clock.now() + DAY}`));
  });

  it('rounds expiries up to the retention step, so a retain moments after the upload changes nothing', async (t) => {
    const clock = new ManualClock();
    const MINUTE = 60 * 1000;
    const store = createGitSnapshotStore({ root: await tempDir(t), logger: createSilentLogger(), clock, retentionStepMs: MINUTE });
    const start = clock.now();
    const { sha } = await store.importTar('acme/app', streamOf(await tarOf([{ name: 'f.txt', content: 'x' }])), { ...META, retainUntil: start + 30 * MINUTE });
    const minute = Math.ceil((start + 30 * MINUTE) / MINUTE) * MINUTE;
    assert.deepEqual(await snapshotRefs(store, 'acme/app'), [`refs/svc/snapshots/${sha}/${minute}`]);
    await store.retain('acme/app', sha, minute - 1);
    assert.deepEqual(await snapshotRefs(store, 'acme/app'), [`refs/svc/snapshots/${sha}/${minute}`]);
    await store.retain('acme/app', sha, minute + 1);
    assert.deepEqual(await snapshotRefs(store, 'acme/app'), [`refs/svc/snapshots/${sha}/${minute + MINUTE}`]);
  });
});

describe('git snapshot store: concurrency', () => {
  it('runs several imports into one repository at once, and a prune beside them', async (t) => {
    const clock = new ManualClock();
    const store = await newStore(t, clock);
    const old = await importFile(store, 'acme/app', 'old');
    clock.advance(2 * HOUR); // `old` has expired; what is imported now has not
    const big = Buffer.alloc(2 * 1024 * 1024, 'z');
    const archives = await Promise.all(
      Array.from({ length: 6 }, (_, i) => tarOf([{ name: `file-${i}.txt`, content: `content ${i}` }, { name: 'big.bin', content: big }], { gzip: i % 2 === 0 })),
    );
    const same = await tarOf([{ name: 'same', content: 'x' }]);
    const [pruned, ...commits] = await Promise.all([
      store.prune(clock.now()),
      ...archives.map((archive) => store.importTar('acme/app', streamOf(archive, 16 * 1024), META)),
      store.importTar('acme/app', streamOf(same), META),
      store.importTar('acme/app', streamOf(same), META),
    ]);
    assert.equal(pruned, 1);
    assert.equal(await store.hasCommit('acme/app', old), false);
    assert.equal(new Set(commits.map((c) => c.sha)).size, 7, 'six distinct snapshots and one imported twice');
    const gitDir = store.repositoryPath('acme/app');
    for (const [i, commit] of commits.slice(0, 6).entries()) {
      assert.equal(await git(gitDir, ['cat-file', 'blob', `${commit.sha}:file-${i}.txt`]), `content ${i}`);
      assert.equal(await store.hasCommit('acme/app', commit.sha), true);
    }
    const refs = await snapshotRefs(store, 'acme/app');
    assert.equal(refs.length, 7, 'one retention ref per snapshot, no import refs left');
    assert.ok(refs.every((ref) => ref.startsWith('refs/svc/snapshots/')));
    await git(gitDir, ['fsck', '--strict', '--no-dangling']);
  });
});
