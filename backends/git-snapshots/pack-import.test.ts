import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { readdir, writeFile } from 'node:fs/promises';
import { Readable } from 'node:stream';
import { setTimeout } from 'node:timers/promises';
import { join } from 'node:path';
import { describe, it, type TestContext } from 'node:test';
import { createSilentLogger, InputError } from '../../core/kernel/index.js';
import type { SnapshotOffer, SnapshotStore } from '../../core/ports/index.js';
import { ManualClock } from '../../test/support/manual-clock.js';
import { tempDir } from '../../test/support/services.js';
import { git, gitInput, packOf, streamOf, writeHistory } from '../../test/snapshots/support.js';
import { createGitSnapshotStore } from './index.js';

const HOUR = 60 * 60 * 1000;

interface Fixture {
  readonly store: SnapshotStore;
  readonly clock: ManualClock;
  /** The sender's repository: 30 commits, v1.<n> annotated every 10, light-<n> every 15. */
  readonly sender: string;
  readonly rev: (spec: string) => Promise<string>;
}

async function fixture(t: TestContext): Promise<Fixture> {
  const clock = new ManualClock();
  const store = createGitSnapshotStore({ root: await tempDir(t), logger: createSilentLogger(), clock });
  const sender = await tempDir(t);
  await git(sender, ['init', '-q', '-b', 'main']);
  await writeHistory(sender, { commits: 30, annotatedEvery: 10, lightweightEvery: 15 });
  const rev = async (spec: string) => (await git(sender, ['rev-parse', spec])).trim();
  return { store, clock, sender, rev };
}

/** The sender's tags reachable from `commit`, as `svc run` offers them. */
async function tagsOf(sender: string, commit: string): Promise<{ name: string; object: string }[]> {
  const text = await git(sender, ['for-each-ref', `--merged=${commit}`, '--format=%(objectname) %(refname:strip=2)', 'refs/tags']);
  return text.trim().split('\n').filter(Boolean).map((line) => ({ object: line.slice(0, 40), name: line.slice(41) }));
}

function offer(f: Fixture, commit: string, extra: Partial<SnapshotOffer> = {}): SnapshotOffer {
  return { commit, tags: [], candidates: [], shallow: false, retainUntil: f.clock.now() + HOUR, ...extra };
}

async function refsOf(store: SnapshotStore, prefix: string): Promise<string[]> {
  const text = await git(store.repositoryPath('acme/app'), ['for-each-ref', '--format=%(refname)', prefix]);
  return text.split('\n').filter(Boolean);
}

async function packFiles(store: SnapshotStore): Promise<string[]> {
  return (await readdir(join(store.repositoryPath('acme/app'), 'objects', 'pack'))).sort();
}

describe('git snapshot store: a sender history as packs', () => {
  it('takes a whole history with its tags, then knows it: a second offer of the commit is complete', async (t) => {
    const f = await fixture(t);
    const head = await f.rev('HEAD');
    const tags = await tagsOf(f.sender, head);
    assert.equal(tags.length, 5, 'v1.10, v1.20, v1.30, light-15, light-30');
    const first = await f.store.negotiate('acme/app', offer(f, head, { tags, candidates: [head] }));
    assert.deepEqual(first, { complete: false, missingObjects: [...new Set(tags.map((tag) => tag.object))] });

    const pack = await packOf(f.sender, [head, ...tags.map((tag) => tag.object)]);
    const imported = await f.store.importPack('acme/app', streamOf(pack), { commit: head, tags, shallow: [], retainUntil: f.clock.now() + HOUR });
    assert.deepEqual(imported, { sha: head, objects: imported.objects, bytes: pack.length });
    assert.ok(imported.objects > 60, `commits, trees, blobs and tags: ${imported.objects}`);
    assert.equal(await f.store.hasCommit('acme/app', head), true);
    assert.equal(await f.store.readFile('acme/app', head, 'file-0.txt'), 'line 30\nline 30\nline 30\n');
    const history = await f.store.history('acme/app', head);
    assert.deepEqual([...history.tags].sort((a, b) => a.name.localeCompare(b.name)), [...tags].sort((a, b) => a.name.localeCompare(b.name)));
    assert.deepEqual(history.shallow, []);
    const gitDir = f.store.repositoryPath('acme/app');
    assert.equal((await git(gitDir, ['rev-list', '--count', head])).trim(), '30', 'the whole history');

    assert.deepEqual(await f.store.negotiate('acme/app', offer(f, head, { tags })), { complete: true });
    assert.deepEqual(await f.store.negotiate('acme/app', offer(f, head, { tags: tags.slice(0, 2) })), { complete: true });
    assert.equal((await f.store.history('acme/app', head)).tags.length, 2, 'the latest offer names the tags');
  });

  it('negotiates the nearest commit it holds, and takes a thin pack of what is new against it', async (t) => {
    const f = await fixture(t);
    const base = await f.rev('HEAD~10');
    await f.store.importPack('acme/app', streamOf(await packOf(f.sender, [base])), { commit: base, tags: [], shallow: [], retainUntil: f.clock.now() + HOUR });
    const head = await f.rev('HEAD');
    const candidates = await Promise.all(['HEAD', 'HEAD~1', 'HEAD~2', 'HEAD~4', 'HEAD~8', 'HEAD~16'].map(f.rev));
    const tags = await tagsOf(f.sender, head);
    const answer = await f.store.negotiate('acme/app', offer(f, head, { tags, candidates }));
    assert.equal(answer.complete, false);
    assert.equal(answer.complete === false && answer.common, await f.rev('HEAD~16'), 'HEAD~16 is the nearest candidate it holds');
    const missing = answer.complete === false ? answer.missingObjects : [];
    const thin = await packOf(f.sender, [head, ...missing, `^${await f.rev('HEAD~16')}`], { thin: true });
    const whole = await packOf(f.sender, [head, ...missing]);
    assert.ok(thin.length < whole.length, `${thin.length} bytes against ${whole.length}`);
    const imported = await f.store.importPack('acme/app', streamOf(thin), { commit: head, tags, shallow: [], retainUntil: f.clock.now() + HOUR });
    assert.ok(imported.objects < 60, `only what is new: ${imported.objects}`);
    assert.equal((await git(f.store.repositoryPath('acme/app'), ['rev-list', '--count', head])).trim(), '30');
    assert.equal((await git(f.store.repositoryPath('acme/app'), ['fsck', '--connectivity-only', '--no-dangling'])).trim(), '');
  });

  it('refuses an incomplete pack and a broken one with a 400 naming the problem, and keeps nothing of them', async (t) => {
    const f = await fixture(t);
    const head = await f.rev('HEAD');
    const meta = { commit: head, tags: [], shallow: [], retainUntil: f.clock.now() + HOUR };
    // Only the last commit and its tree: its parent and the unchanged files are missing.
    const partial = await packOf(f.sender, [head, `^${await f.rev('HEAD~1')}`]);
    await assert.rejects(f.store.importPack('acme/app', streamOf(partial), meta), (error: unknown) => {
      assert.ok(error instanceof InputError, String(error));
      assert.equal(error.code, 'snapshot_pack_incomplete');
      assert.match(error.message, /the pack is incomplete: an object the pack's objects point to is neither in the pack nor on the server \(git: did not receive expected object [0-9a-f]{40}\); send what the negotiation said/);
      return true;
    });
    const cases: ReadonlyArray<readonly [Buffer, RegExp]> = [
      [Buffer.from('not a pack at all, sorry'), /the pack is refused \(git index-pack: pack signature mismatch\); send a whole git pack/],
      [(await packOf(f.sender, [head])).subarray(0, 200), /the pack is refused \(git index-pack: .*(early EOF|premature|inflate)/],
    ];
    for (const [bytes, message] of cases) {
      await assert.rejects(f.store.importPack('acme/app', streamOf(bytes), meta), (error: unknown) => {
        assert.ok(error instanceof InputError, String(error));
        assert.equal(error.code, 'snapshot_pack_invalid');
        assert.match(error.message, message);
        return true;
      });
    }
    // A pack of the right commit whose tree has a .git entry: fsck refuses it.
    const evil = await tempDir(t);
    await git(evil, ['init', '-q']);
    const blob = (await gitInput(evil, ['hash-object', '-w', '--stdin'], 'x')).toString().trim();
    const tree = (await gitInput(evil, ['mktree'], `100644 blob ${blob}\t.git\n`)).toString().trim();
    const commit = (await git(evil, ['commit-tree', tree, '-m', 'evil'])).trim();
    await assert.rejects(f.store.importPack('acme/app', streamOf(await packOf(evil, [commit])), { ...meta, commit }), /the pack is refused \(git index-pack: object [0-9a-f]+: hasDotgit: contains '\.git'; fsck error in packed object\)/);

    assert.deepEqual(await packFiles(f.store), [], 'no pack kept');
    assert.deepEqual((await readdir(join(f.store.repositoryPath('acme/app'), 'objects'))).filter((name) => !['info', 'pack'].includes(name)), [], 'no quarantine, no loose object');
    assert.deepEqual(await refsOf(f.store, 'refs/'), []);
  });

  it("takes the ident mistakes old histories have (a bad time zone), as GitHub does", async (t) => {
    const f = await fixture(t);
    const old = await tempDir(t);
    await git(old, ['init', '-q']);
    const tree = (await gitInput(old, ['mktree'], '')).toString().trim();
    const body = `tree ${tree}\nauthor A <a@example.com> 1100000000 +99999\ncommitter A <a@example.com> 1100000000 +0000\n\nfrom 2004\n`;
    const commit = (await gitInput(old, ['hash-object', '-t', 'commit', '-w', '--stdin', '--literally'], body)).toString().trim();
    const imported = await f.store.importPack('acme/app', streamOf(await packOf(old, [commit])), { commit, tags: [], shallow: [], retainUntil: f.clock.now() + HOUR });
    assert.equal(imported.sha, commit);
    assert.equal(await f.store.hasCommit('acme/app', commit), true);
  });

  it('bytes after the pack, once git took it whole, are a 400 or nothing, never a broken pipe', async (t) => {
    const f = await fixture(t);
    const head = await f.rev('HEAD');
    const pack = await packOf(f.sender, [head]);
    const late = Readable.from(
      (async function* () {
        yield pack;
        // index-pack exits once it checked the trailing checksum; what comes after finds no reader.
        await setTimeout(300);
        yield Buffer.from('late bytes');
      })(),
    );
    const outcome = await f.store.importPack('acme/app', late, { commit: head, tags: [], shallow: [], retainUntil: f.clock.now() + HOUR }).then(
      (imported) => imported.sha,
      (error: unknown) => error,
    );
    if (typeof outcome !== 'string') assert.ok(outcome instanceof InputError && outcome.code === 'snapshot_pack_invalid', String(outcome));
    else assert.equal(outcome, head);
  });

  it('refuses a commit that is not one, a tag given twice and a tag name git would refuse', async (t) => {
    const f = await fixture(t);
    const head = await f.rev('HEAD');
    const tree = await f.rev('HEAD^{tree}');
    await assert.rejects(f.store.importPack('acme/app', streamOf(await packOf(f.sender, [head])), { commit: tree, tags: [], shallow: [], retainUntil: f.clock.now() + HOUR }), /is a tree, not a commit/);
    for (const [tags, message] of [
      [[{ name: 'v1', object: head }, { name: 'v1', object: head }], /tag "v1" is given twice/],
      [[{ name: 'a b', object: head }], /tag "a b" may not hold spaces/],
      [[{ name: 'x/../y', object: head }], /may not hold "\.\."/],
      [[{ name: 'r', object: head }, { name: 'r/1', object: head }], /tag "r\/1" is below the tag r/],
      [[{ name: 'ok', object: 'HEAD' }], /not a full object id/],
    ] as const) {
      await assert.rejects(f.store.negotiate('acme/app', offer(f, head, { tags })), (error: unknown) => error instanceof InputError && message.test(error.message));
    }
  });

  it('takes a shallow history with its shallow commits, serves them as the boundary, and a whole history later lifts it', async (t) => {
    const f = await fixture(t);
    const shallowClone = await tempDir(t);
    await git(shallowClone, ['clone', '-q', '--depth=3', '--no-local', `file://${f.sender}`, '.']);
    const head = await f.rev('HEAD');
    const boundary = (await git(shallowClone, ['rev-parse', 'HEAD~2'])).trim();
    const pack = await packOf(shallowClone, [head]);
    await assert.rejects(f.store.importPack('acme/app', streamOf(pack), { commit: head, tags: [], shallow: [], retainUntil: f.clock.now() + HOUR }), /the pack is incomplete/);
    await f.store.importPack('acme/app', streamOf(pack), { commit: head, tags: [], shallow: [boundary], retainUntil: f.clock.now() + HOUR });
    assert.deepEqual((await f.store.history('acme/app', head)).shallow, [boundary]);
    const gitDir = f.store.repositoryPath('acme/app');
    assert.equal((await git(gitDir, ['rev-list', '--count', head])).trim(), '3');

    // A sender with the whole history: the store says it lacks it, and takes it all.
    const answer = await f.store.negotiate('acme/app', offer(f, head, { candidates: [head] }));
    assert.deepEqual(answer, { complete: false, missingObjects: [] });
    assert.deepEqual(await f.store.negotiate('acme/app', offer(f, head, { candidates: [head], shallow: true })), { complete: true }, 'a shallow sender is served by what is there');
    await f.store.importPack('acme/app', streamOf(await packOf(f.sender, [head])), { commit: head, tags: [], shallow: [], retainUntil: f.clock.now() + HOUR });
    assert.deepEqual((await f.store.history('acme/app', head)).shallow, []);
    assert.equal((await git(gitDir, ['rev-list', '--count', head])).trim(), '30');
  });

  it('prunes a commit with its tags once its retention ran out, keeping history another kept commit shares', async (t) => {
    const f = await fixture(t);
    const start = f.clock.now();
    const older = await f.rev('HEAD~5');
    const head = await f.rev('HEAD');
    const olderTags = await tagsOf(f.sender, older);
    await f.store.importPack('acme/app', streamOf(await packOf(f.sender, [older, ...olderTags.map((tag) => tag.object)])), { commit: older, tags: olderTags, shallow: [], retainUntil: start + 3 * HOUR });
    const answer = await f.store.negotiate('acme/app', offer(f, head, { tags: await tagsOf(f.sender, head), candidates: [head, older], retainUntil: start + HOUR }));
    assert.equal(answer.complete === false && answer.common, older);
    const missing = answer.complete === false ? answer.missingObjects : [];
    await f.store.importPack('acme/app', streamOf(await packOf(f.sender, [head, ...missing, `^${older}`], { thin: true })), { commit: head, tags: await tagsOf(f.sender, head), shallow: [], retainUntil: start + HOUR });
    assert.equal((await refsOf(f.store, 'refs/svc/tagged/')).length, 2);

    assert.equal(await f.store.prune(start + HOUR), 1, 'head expired');
    assert.equal(await f.store.hasCommit('acme/app', head), false);
    assert.equal(await f.store.hasCommit('acme/app', older), true);
    assert.deepEqual(await refsOf(f.store, 'refs/svc/tagged/'), [`refs/svc/tagged/${older}/${(await refsOf(f.store, 'refs/svc/tagged/'))[0]?.split('/').at(-1) ?? ''}`]);
    assert.equal((await f.store.history('acme/app', older)).tags.length, olderTags.length, "the older commit's tags stay");
    assert.equal((await git(f.store.repositoryPath('acme/app'), ['rev-list', '--count', older])).trim(), '25', 'its history too');
    assert.equal(await f.store.prune(start + 3 * HOUR), 1);
    assert.equal(existsSync(f.store.repositoryPath('acme/app')), false, 'nothing kept: the empty repository goes too');
  });

  it('drops a quarantine a crash left behind at the next prune', async (t) => {
    const f = await fixture(t);
    const head = await f.rev('HEAD');
    await f.store.importPack('acme/app', streamOf(await packOf(f.sender, [head])), { commit: head, tags: [], shallow: [], retainUntil: f.clock.now() + HOUR });
    const objects = join(f.store.repositoryPath('acme/app'), 'objects');
    await writeFile(join(objects, 'svc-incoming-crashed'), 'left over');
    await f.store.prune(f.clock.now());
    assert.deepEqual((await readdir(objects)).filter((name) => name.startsWith('svc-incoming-')), []);
  });
});
