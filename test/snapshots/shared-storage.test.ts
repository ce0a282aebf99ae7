import assert from 'node:assert/strict';
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { setTimeout } from 'node:timers/promises';
import { describe, it, type TestContext } from 'node:test';
import { createSilentLogger, NotFoundError, UnavailableError } from '../../core/kernel/index.js';
import type { BlobStore, SnapshotOffer, SnapshotStore, SnapshotTag } from '../../core/ports/index.js';
import { createGitSnapshots } from '../../backends/git-snapshots/index.js';
import { createFilesystemBlobStore } from '../../backends/fs-blobs/index.js';
import { postgresBlobs, postgresStore } from '../../backends/postgres/index.js';
import { ManualClock } from '../support/manual-clock.js';
import { onCleanup, postgresSchemaUrl, requireService, tempDir } from '../support/services.js';
import { collect, git, isolateGitConfig, listTar, packOf, streamOf, tarOf, writeHistory } from './support.js';

isolateGitConfig();
const postgres = await requireService('postgres');
const HOUR = 60 * 60 * 1000;
const REPO = 'acme/app';

interface Cluster {
  readonly blobs: BlobStore;
  readonly clock: ManualClock;
  readonly a: SnapshotStore;
  readonly b: SnapshotStore;
  /** The sender's repository: 30 commits, v1.<n> annotated every 10, light-<n> every 15. */
  readonly sender: string;
  readonly rev: (spec: string) => Promise<string>;
}

type SharedBlobs = (t: TestContext, clock: ManualClock) => Promise<BlobStore>;

const backends: readonly { readonly name: string; readonly skip: string | false; readonly open: SharedBlobs }[] = [
  { name: 'a shared directory', skip: false, open: async (t, clock) => createFilesystemBlobStore(await tempDir(t), clock) },
  {
    name: 'PostgreSQL',
    skip: postgres.skip,
    open: async (t, clock) => {
      const url = postgresSchemaUrl(t, postgres.url ?? '').url;
      const logger = createSilentLogger();
      const store = await postgresStore.create({ logger, clock, dataDir: '/nonexistent', url });
      onCleanup(t, () => store.database.close());
      return (await postgresBlobs.create({ logger, clock, dataDir: '/nonexistent', url, signingKey: 'test-signing-key-0123456789abcdef', store })).store;
    },
  },
];

async function cluster(t: TestContext, open: SharedBlobs): Promise<Cluster> {
  const clock = new ManualClock();
  const blobs = await open(t, clock);
  const node = async (): Promise<SnapshotStore> => createGitSnapshots({ logger: createSilentLogger(), clock, dataDir: await tempDir(t), sharedBlobs: blobs });
  const [a, b] = await Promise.all([node(), node()]);
  const sender = await tempDir(t);
  await git(sender, ['init', '-q', '-b', 'main']);
  await writeHistory(sender, { commits: 30, annotatedEvery: 10, lightweightEvery: 15 });
  return { blobs, clock, a, b, sender, rev: async (spec) => (await git(sender, ['rev-parse', spec])).trim() };
}

async function tagsOf(repo: string, commit: string): Promise<SnapshotTag[]> {
  const text = await git(repo, ['for-each-ref', `--merged=${commit}`, '--format=%(objectname) %(refname:strip=2)', 'refs/tags']);
  return text.trim().split('\n').filter(Boolean).map((line) => ({ object: line.slice(0, 40), name: line.slice(41) }));
}

const byName = (tags: readonly SnapshotTag[]): SnapshotTag[] => [...tags].sort((x, y) => x.name.localeCompare(y.name));

function offer(c: Cluster, commit: string, extra: Partial<SnapshotOffer> = {}): SnapshotOffer {
  return { commit, tags: [], candidates: [], shallow: false, retainUntil: c.clock.now() + HOUR, ...extra };
}

/** What `svc run` does: negotiate, then send a pack of what the node lacks. */
async function send(c: Cluster, store: SnapshotStore, repo: string, commit: string, extra: Partial<SnapshotOffer> & { shallowCommits?: string[] } = {}): Promise<'complete' | number> {
  const { shallowCommits = [], ...rest } = extra;
  const tags = rest.tags ?? (await tagsOf(repo, commit));
  const answer = await store.negotiate(REPO, offer(c, commit, { ...rest, tags }));
  if (answer.complete) return 'complete';
  const revs = [commit, ...answer.missingObjects, ...(answer.common === undefined ? [] : [`^${answer.common}`])];
  const pack = await packOf(repo, revs, { thin: answer.common !== undefined });
  await store.importPack(REPO, streamOf(pack), { commit, tags, shallow: shallowCommits, retainUntil: c.clock.now() + HOUR });
  return pack.length;
}

async function sharedKeys(blobs: BlobStore): Promise<string[]> {
  const keys: string[] = [];
  for await (const info of blobs.list('git-snapshots/')) keys.push(info.key);
  return keys.sort();
}

async function packFiles(store: SnapshotStore): Promise<string[]> {
  return (await readdir(join(store.repositoryPath(REPO), 'objects', 'pack'))).filter((name) => name.endsWith('.pack'));
}

/** A real `git fetch` of the commit (and its tags) from the node's bare repository, through upload-pack. */
async function fetchFrom(t: TestContext, store: SnapshotStore, sha: string): Promise<string> {
  const clone = await tempDir(t);
  await git(clone, ['init', '-q']);
  await git(clone, ['fetch', '-q', '--upload-pack=git -c uploadpack.allowAnySHA1InWant=true upload-pack', store.repositoryPath(REPO), sha]);
  return (await git(clone, ['rev-list', '--count', sha])).trim();
}

for (const backend of backends) {
  describe(`shared snapshots over ${backend.name}: two nodes, one blob store`, { skip: backend.skip }, () => {
    it('a history with tags sent to node A is complete on node B, which reads, archives and serves it', async (t) => {
      const c = await cluster(t, backend.open);
      const head = await c.rev('HEAD');
      const tags = await tagsOf(c.sender, head);
      assert.equal(typeof (await send(c, c.a, c.sender, head)), 'number');

      assert.equal(await c.b.negotiate(REPO, offer(c, head, { tags, candidates: [head] })).then((answer) => answer.complete), true, 'B counts what A published: nothing travels');
      assert.equal(await c.b.hasCommit(REPO, head), true);
      assert.equal(await c.b.readFile(REPO, head, 'file-0.txt'), 'line 30\nline 30\nline 30\n');
      assert.deepEqual(byName((await c.b.history(REPO, head)).tags), byName(tags));
      const files = await listTar(await collect(await c.b.archive(REPO, head)));
      assert.equal(Object.keys(files).filter((name) => name.endsWith('.txt')).length, 10);
      assert.equal(await fetchFrom(t, c.b, head), '30', 'a fetch of B gets the whole history');
      const tagList = (await git(c.b.repositoryPath(REPO), ['for-each-ref', '--format=%(objecttype)', 'refs/svc/tagsets/'])).trim().split('\n');
      assert.ok(tagList.includes('tag'), 'annotated tag objects came along');

      const fewer = tags.filter((tag) => tag.name.startsWith('light-'));
      assert.equal(await send(c, c.a, c.sender, head, { tags: fewer }), 'complete');
      assert.deepEqual(byName((await c.b.history(REPO, head)).tags), byName(fewer), 'B sees the tags A recorded later');
    });

    it('a later commit is published thin against the earlier one, and B materialises both, in order', async (t) => {
      const c = await cluster(t, backend.open);
      const base = await c.rev('HEAD~10');
      const head = await c.rev('HEAD');
      await send(c, c.a, c.sender, base);
      const candidates = await Promise.all(['HEAD', 'HEAD~1', 'HEAD~2', 'HEAD~4', 'HEAD~8', 'HEAD~10', 'HEAD~16'].map(c.rev));
      const sent = await send(c, c.a, c.sender, head, { candidates });
      const full = (await packOf(c.sender, [head])).length;
      assert.ok(typeof sent === 'number' && sent < full / 2, `only what is new travels (${String(sent)} of ${full} bytes)`);
      const manifest = JSON.parse((await collect((await c.blobs.get(`git-snapshots/${REPO}/commits/${head}.json`))!)).toString()) as { requires: string[] };
      assert.deepEqual(manifest.requires, [base]);

      assert.equal(await c.b.readFile(REPO, head, 'file-5.txt'), 'line 25\n'.repeat(5));
      assert.equal(await c.b.hasCommit(REPO, base), true, 'the base came first');
      assert.equal(await fetchFrom(t, c.b, head), '30');
    });

    it('a related commit sent through B after A took its parent sends only what is new', async (t) => {
      const c = await cluster(t, backend.open);
      const base = await c.rev('HEAD~1');
      const head = await c.rev('HEAD');
      await send(c, c.a, c.sender, base);
      const candidates = await Promise.all(['HEAD', 'HEAD~1', 'HEAD~2'].map(c.rev));
      const answer = await c.b.negotiate(REPO, offer(c, head, { candidates, tags: await tagsOf(c.sender, head) }));
      assert.equal(answer.complete === false && answer.common, base, 'B found the parent A holds');
      const sent = await send(c, c.b, c.sender, head, { candidates });
      assert.ok(typeof sent === 'number' && sent < 2000, `a small thin pack: ${String(sent)} bytes`);
      assert.equal(await c.a.readFile(REPO, head, 'file-0.txt'), 'line 30\nline 30\nline 30\n', 'and A reads what B took');
    });

    it('negotiated on A, sent to B (a proxy in front): B first gets the interior commit A named as common', async (t) => {
      const c = await cluster(t, backend.open);
      const tip = await c.rev('HEAD~3');
      await send(c, c.a, c.sender, tip);
      const head = await c.rev('HEAD');
      const candidates = await Promise.all(['HEAD', 'HEAD~4', 'HEAD~8'].map(c.rev));
      const tags = await tagsOf(c.sender, head);
      const answer = await c.a.negotiate(REPO, offer(c, head, { candidates, tags }));
      const common = await c.rev('HEAD~4');
      assert.equal(answer.complete === false && answer.common, common, 'an interior commit of what A holds');
      const missing = answer.complete ? [] : answer.missingObjects;
      const pack = await packOf(c.sender, [head, ...missing, `^${common}`], { thin: true });
      await c.b.importPack(REPO, streamOf(pack), { commit: head, tags, shallow: [], retainUntil: c.clock.now() + HOUR });
      assert.equal(await c.b.readFile(REPO, head, 'file-0.txt'), 'line 30\nline 30\nline 30\n');
      const third = await createGitSnapshots({ logger: createSilentLogger(), clock: c.clock, dataDir: await tempDir(t), sharedBlobs: c.blobs });
      assert.equal(await third.hasCommit(REPO, head), true, 'as the checkout relay asks first');
      assert.equal(await fetchFrom(t, third, head), '30', 'a third node materialises the chain');
    });

    it('a commit published again after an interior commit of it was named as common does not come to need it (no cycle)', { timeout: 60_000 }, async (t) => {
      const c = await cluster(t, backend.open);
      const tip = await c.rev('HEAD~3');
      await send(c, c.a, c.sender, tip);
      const head = await c.rev('HEAD');
      const interior = await c.rev('HEAD~4');
      const answer = await c.a.negotiate(REPO, offer(c, head, { candidates: [head, interior], tags: await tagsOf(c.sender, head) }));
      assert.equal(answer.complete === false && answer.common, interior);
      // The tip offered again with other tags: published again, with the interior commit retained beside it.
      assert.equal(await send(c, c.a, c.sender, tip, { tags: [] }), 'complete');
      const manifest = JSON.parse((await collect((await c.blobs.get(`git-snapshots/${REPO}/commits/${tip}.json`))!)).toString()) as { requires: string[]; tags: unknown[] };
      assert.deepEqual(manifest, { ...manifest, requires: [], tags: [] });
      assert.equal(await c.b.readFile(REPO, tip, 'file-7.txt'), 'line 27\n'.repeat(7));
      assert.equal(await c.b.hasCommit(REPO, interior), true);
    });

    it('a shallow history keeps its boundary on the other node', async (t) => {
      const c = await cluster(t, backend.open);
      const shallowClone = await tempDir(t);
      await git(shallowClone, ['clone', '-q', '--depth', '5', '--no-single-branch', `file://${c.sender}`, '.']);
      const head = (await git(shallowClone, ['rev-parse', 'HEAD'])).trim();
      const cut = (await git(shallowClone, ['rev-parse', 'HEAD~4'])).trim();
      await send(c, c.a, shallowClone, head, { shallow: true, shallowCommits: [cut], tags: [] });
      assert.deepEqual((await c.b.history(REPO, head)).shallow, [cut]);
      assert.equal((await git(c.b.repositoryPath(REPO), ['rev-list', '--count', head])).trim(), '5');
    });

    it('after a shallow history, a whole one sent to A is whole on B too', async (t) => {
      const c = await cluster(t, backend.open);
      const shallowClone = await tempDir(t);
      await git(shallowClone, ['clone', '-q', '--depth', '5', '--no-single-branch', `file://${c.sender}`, '.']);
      const older = await c.rev('HEAD~1');
      await send(c, c.a, shallowClone, older, { shallow: true, shallowCommits: [await c.rev('HEAD~4')], tags: [] });
      const head = await c.rev('HEAD');
      assert.equal(typeof (await send(c, c.a, c.sender, head, { candidates: [head, older] })), 'number', 'a whole sender sends everything to a cut store');
      assert.deepEqual((await c.a.history(REPO, head)).shallow, [], 'A is whole again');
      assert.equal(await c.b.hasCommit(REPO, head), true);
      assert.deepEqual((await c.b.history(REPO, head)).shallow, [], 'and so is B');
      assert.equal((await git(c.b.repositoryPath(REPO), ['rev-list', '--count', head])).trim(), '30');
    });

    it('a directory tar imported on A is read on B, and a tar on B builds on a parent only A took', async (t) => {
      const c = await cluster(t, backend.open);
      const meta = { message: 'snapshot', authorName: 'T', authorEmail: 't@example.com', timestamp: 1_700_000_000_000 };
      const tar = await tarOf([{ name: 'README.md', content: 'hello\n' }, { name: 'bin/run', content: '#!/bin/sh\n', mode: 0o755 }], { gzip: true });
      const first = await c.a.importTar(REPO, streamOf(tar), meta);
      assert.equal(await c.b.readFile(REPO, first.sha, 'README.md'), 'hello\n');
      const second = await c.b.importTar(REPO, streamOf(await tarOf([{ name: 'README.md', content: 'bye\n' }])), { ...meta, parent: first.sha });
      const parents = (await git(c.b.repositoryPath(REPO), ['log', '-1', '--format=%P', second.sha])).trim();
      assert.equal(parents, first.sha, 'the parent was materialised before the import, so the commit is the same as on A');
      assert.equal(await c.a.readFile(REPO, second.sha, 'README.md'), 'bye\n');
    });

    it('many requests for one commit on B materialise it once', async (t) => {
      const packReads: string[] = [];
      const c = await cluster(t, async (tc, clock) => {
        const blobs = await backend.open(tc, clock);
        // Counts the pack reads (each is one materialisation) and makes each take a moment.
        const get: BlobStore['get'] = async (key) => {
          if (key.endsWith('.pack')) {
            packReads.push(key);
            await setTimeout(50);
          }
          return blobs.get(key);
        };
        return { kind: blobs.kind, put: (k, d) => blobs.put(k, d), stat: (k) => blobs.stat(k), delete: (k) => blobs.delete(k), list: (p) => blobs.list(p), get };
      });
      const head = await c.rev('HEAD');
      await send(c, c.a, c.sender, head);
      assert.deepEqual(packReads, []);
      const reads = await Promise.all([
        ...Array.from({ length: 6 }, () => c.b.readFile(REPO, head, 'file-1.txt')),
        ...Array.from({ length: 4 }, () => c.b.hasCommit(REPO, head)),
        c.b.history(REPO, head).then((history) => history.tags.length),
      ]);
      assert.deepEqual(reads, [...Array.from({ length: 6 }, () => 'line 21\n'.repeat(1)), true, true, true, true, 5]);
      assert.equal(packReads.length, 1, 'one pack read and imported');
      assert.equal((await packFiles(c.b)).length, 1);
    });

    it('a commit no node holds is the usual answer; a missing or corrupt shared part is a 503 naming the blob', async (t) => {
      const c = await cluster(t, backend.open);
      const nowhere = 'f'.repeat(40);
      assert.equal(await c.b.hasCommit(REPO, nowhere), false);
      await assert.rejects(c.b.readFile(REPO, nowhere, 'x'), (error: unknown) => error instanceof NotFoundError && error.code === 'snapshot_not_found');

      const head = await c.rev('HEAD');
      await send(c, c.a, c.sender, head);
      const manifestKey = `git-snapshots/${REPO}/commits/${head}.json`;
      const manifest = JSON.parse((await collect((await c.blobs.get(manifestKey))!)).toString()) as { pack: string };
      const pack = await collect((await c.blobs.get(manifest.pack))!);
      await c.blobs.put(manifest.pack, pack.subarray(0, pack.length - 100));
      const names = (blob: string) => (error: unknown) => error instanceof UnavailableError && error.code === 'snapshot_part_unreadable' && error.message.includes(blob);
      await assert.rejects(c.b.hasCommit(REPO, head), names(manifest.pack), 'a cut pack');
      assert.equal((await packFiles(c.b)).length, 0, 'nothing of it was kept');
      await c.blobs.delete(manifest.pack);
      await assert.rejects(c.b.readFile(REPO, head, 'file-1.txt'), names(manifest.pack), 'a missing pack');
      await c.blobs.put(manifestKey, Buffer.from('{"version":1'));
      await assert.rejects(c.b.archive(REPO, head), names(manifestKey), 'a corrupt manifest');
      // Two manifests that require each other: an error, never a wait.
      const other = await c.rev('HEAD~1');
      const looped = (commit: string, base: string) => ({ version: 1, commit, requires: [base], tags: [], shallow: [], whole: true, pack: null, packBytes: 0 });
      await c.blobs.put(manifestKey, Buffer.from(JSON.stringify(looped(head, other))));
      await c.blobs.put(`git-snapshots/${REPO}/commits/${other}.json`, Buffer.from(JSON.stringify(looped(other, head))));
      await assert.rejects(c.b.hasCommit(REPO, head), (error: unknown) => error instanceof UnavailableError && /requires it in turn/.test(error.message));
      assert.equal(await c.a.hasCommit(REPO, head), true, 'A still has its own copy');
    });

    it('prune on both nodes keeps a base a retained commit needs, and deletes the rest after the grace', async (t) => {
      const c = await cluster(t, backend.open);
      const base = await c.rev('HEAD~10');
      const head = await c.rev('HEAD');
      await send(c, c.a, c.sender, base);
      await send(c, c.a, c.sender, head, { candidates: [head, base] });
      await c.a.retain(REPO, head, c.clock.now() + 5 * HOUR);
      assert.equal(await c.b.hasCommit(REPO, head), true);
      // A pack a crashed publication left: no manifest names it.
      const orphan = `git-snapshots/${REPO}/packs/${'e'.repeat(40)}.${c.clock.now()}.crashed.pack`;
      await c.blobs.put(orphan, Buffer.from('PACK'));

      c.clock.advance(2 * HOUR);
      const bothPrune = async () => Promise.all([c.a.prune(c.clock.now()), c.b.prune(c.clock.now())]);
      await bothPrune();
      c.clock.advance(HOUR);
      await bothPrune();
      const keys = await sharedKeys(c.blobs);
      assert.ok(keys.includes(`git-snapshots/${REPO}/commits/${base}.json`), 'the base stays: head needs it');
      assert.ok(!keys.some((key) => key.includes('/doomed/')), 'and is not even marked');
      assert.ok(!keys.includes(orphan), 'the orphan pack went after the grace');
      const third = await createGitSnapshots({ logger: createSilentLogger(), clock: c.clock, dataDir: await tempDir(t), sharedBlobs: c.blobs });
      assert.equal(await third.readFile(REPO, head, 'file-0.txt'), 'line 30\nline 30\nline 30\n', 'a new node still materialises head');

      c.clock.advance(3 * HOUR);
      await bothPrune();
      assert.equal(await c.a.hasCommit(REPO, head), true, 'marked, not deleted yet');
      assert.ok((await sharedKeys(c.blobs)).some((key) => key.startsWith(`git-snapshots/${REPO}/doomed/${head}/`)));
      c.clock.advance(HOUR);
      await bothPrune();
      await third.prune(c.clock.now());
      assert.deepEqual(await sharedKeys(c.blobs), [], 'everything went once nothing was retained');
      assert.equal(await c.a.hasCommit(REPO, head), false);
      assert.equal(await c.b.hasCommit(REPO, base), false);
    });
  });
}
