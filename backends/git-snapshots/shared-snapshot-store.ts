import { randomUUID } from 'node:crypto';
import type { Logger } from '../../core/kernel/index.js';
import type { BlobStore, Clock, SnapshotStore, SnapshotTag } from '../../core/ports/index.js';
import type { Git } from './git-process.js';
import type { KeyedLocks } from './keyed-locks.js';
import { checkOffer } from './offer-meta.js';
import { independent, packStream, retainedAncestors, retainedDescendants } from './pack-export.js';
import { assertObjectId, repositoryDirectory } from './repository-names.js';
import { readShallow } from './shallow-file.js';
import { commonKey, manifestKey, packKey, parseSharedKey, readManifest, repositoryPrefix, retentionKey, sharedPartError, type SharedManifest } from './shared-layout.js';
import { pruneShared } from './shared-prune.js';
import { SingleFlight } from './single-flight.js';
import { tagSetOf } from './tag-sets.js';

export interface SharedSnapshotStoreOptions {
  /** This node's store: its bare repositories are the materialised cache. */
  readonly local: SnapshotStore;
  /** The blob store every node reaches (PostgreSQL, or SVC_BLOB_DIR). */
  readonly blobs: BlobStore;
  /** The git and locks `local` runs with (an export must not run beside the local prune's gc). */
  readonly git: Git;
  readonly locks: KeyedLocks;
  /** The local store's root (repository directories). */
  readonly root: string;
  readonly logger: Logger;
  readonly clock: Clock;
  /** How long a materialised commit is kept at least, when its shared retention is nearer. */
  readonly importRetentionMs: number;
  /** Shared retention dates are rounded up to this, like the local ones (1 ms: exact). */
  readonly retentionStepMs: number;
  /** How long a commit found unneeded stays before a later prune deletes it (default 10 minutes). */
  readonly pruneGraceMs?: number;
}

const DEFAULT_PRUNE_GRACE_MS = 10 * 60 * 1000;
/** A negotiation looks up at most this many candidates in the shared store (`svc run` offers about 30). */
const MAX_SHARED_CANDIDATES = 64;

/**
 * Snapshots for several nodes (see README.md, "Several nodes"): the shared blob store is the
 * source of truth, and each node's bare repositories are a cache materialised from it.
 *
 * - Every import (tar or pack) is published: a pack of the commit and its tags, thin against the
 *   nearest commits already published (`requires`), streamed from `git pack-objects` into a blob,
 *   then the manifest naming it (a node sees the commit once its manifest is there).
 * - Every read of a commit this node lacks (hasCommit, readFile, archive, history, retain, the
 *   relay's hasCommit before its upload-pack, negotiation) first materialises it: its requires
 *   first, then the pack streamed from the blob into `git index-pack --fix-thin` (never whole in
 *   memory), once per commit on this node however many ask at once.
 * - Negotiation counts the cluster: the offered commit, or the nearest candidate, published by
 *   any node is materialised here first, so only what no node holds is sent.
 * - Retention is kept in the shared store too (`retain/<sha>/<until>` keys, race-free: each is
 *   its own blob); the shared prune (shared-prune.ts) keeps every base a retained commit needs.
 */
export function createSharedSnapshotStore(options: SharedSnapshotStoreOptions): SnapshotStore {
  const { local, blobs, git, locks, root, logger, clock } = options;
  const graceMs = options.pruneGraceMs ?? DEFAULT_PRUNE_GRACE_MS;
  const step = Math.max(1, Math.ceil(options.retentionStepMs));
  const roundUp = (until: number): number => Math.ceil(until / step) * step;
  const flights = new SingleFlight();
  /** The latest shared retention this node wrote per commit: a retain to an earlier date writes nothing. */
  const written = new Map<string, number>();
  /** Commits (with their tag set) this node published or found published since its last prune. */
  const published = new Map<string, string>();

  /** Whether this node holds the commit now, materialising it from the shared store when it can. */
  async function ensureLocal(repository: string, sha: string, chain: ReadonlySet<string> = new Set()): Promise<boolean> {
    if (await local.hasCommit(repository, sha)) return true;
    return flights.run(`materialise:${repository}:${sha}`, async () => {
      if (await local.hasCommit(repository, sha)) return true;
      const manifest = await readManifest(blobs, repository, sha);
      if (manifest === undefined) return false;
      await materialise(repository, manifest, chain);
      return true;
    });
  }

  /** `chain`: the commits whose materialisation waits on this one (a manifest naming one of them would wait forever). */
  async function materialise(repository: string, manifest: SharedManifest, chain: ReadonlySet<string> = new Set()): Promise<void> {
    const started = clock.now();
    const waiting = new Set([...chain, manifest.commit]);
    for (const base of manifest.requires) {
      if (waiting.has(base)) throw sharedPartError(manifestKey(repository, manifest.commit), `requires ${base}, which requires it in turn (corrupt)`);
      if (!(await ensureLocal(repository, base, waiting))) throw sharedPartError(manifestKey(repository, base), `is missing (a base of ${manifest.commit})`);
    }
    const retainUntil = Math.max(await sharedRetention(repository, manifest.commit), clock.now() + options.importRetentionMs);
    if (manifest.pack === null) {
      // A commit its bases hold: they are here now; it is kept on its own too.
      const key = manifestKey(repository, manifest.commit);
      if (!(await local.hasCommit(repository, manifest.commit))) throw sharedPartError(key, `names no pack, and its bases do not hold ${manifest.commit} (corrupt)`);
      await local.retain(repository, manifest.commit, retainUntil);
      return;
    }
    const packKeyOfManifest = manifest.pack;
    const pack = await blobs.get(packKeyOfManifest);
    if (pack === undefined) throw sharedPartError(packKeyOfManifest, `is missing (the pack of ${manifest.commit})`);
    try {
      await local.importPack(repository, pack, { commit: manifest.commit, tags: manifest.tags, shallow: manifest.shallow, retainUntil });
    } catch (error) {
      pack.destroy();
      throw sharedPartError(manifest.pack, `could not be imported: ${(error as Error).message}`, error);
    }
    logger.debug({ repository, commit: manifest.commit, bytes: manifest.packBytes, ms: clock.now() - started }, 'materialised a shared snapshot');
  }

  /** The latest shared retention date of the commit (-1: none). */
  async function sharedRetention(repository: string, sha: string): Promise<number> {
    let latest = -1;
    for await (const info of blobs.list(`${repositoryPrefix(repository)}retain/${sha}/`)) {
      const until = Number(info.key.slice(info.key.lastIndexOf('/') + 1));
      if (Number.isSafeInteger(until)) latest = Math.max(latest, until);
    }
    return latest;
  }

  async function retainShared(repository: string, sha: string, until: number): Promise<void> {
    const rounded = roundUp(until);
    const id = `${repository}:${sha}`;
    if ((written.get(id) ?? -1) >= rounded) return;
    await blobs.put(retentionKey(repository, sha, rounded), Buffer.alloc(0));
    written.set(id, Math.max(rounded, written.get(id) ?? -1));
  }

  /** A base may be built on while its manifest is there and no prune marked it doomed. */
  async function usableBase(repository: string, sha: string): Promise<boolean> {
    if ((await blobs.stat(manifestKey(repository, sha))) === undefined) return false;
    return !(await isDoomed(repository, sha));
  }

  async function isDoomed(repository: string, sha: string): Promise<boolean> {
    for await (const _mark of blobs.list(`${repositoryPrefix(repository)}doomed/${sha}/`)) return true;
    return false;
  }

  /** The manifest of a base that may be built on (undefined: none, unreadable, or doomed). */
  async function usableManifest(repository: string, sha: string): Promise<SharedManifest | undefined> {
    const manifest = await readManifest(blobs, repository, sha).catch(() => undefined);
    return manifest === undefined || (await isDoomed(repository, sha)) ? undefined : manifest;
  }

  /**
   * Writes the commit (held by this node) to the shared store: the pack of what its nearest
   * published ancestors lack, then its manifest. Bases are checked again just before the
   * manifest goes in (shared-prune.ts: a base doomed meanwhile is not built on).
   */
  async function publish(repository: string, sha: string, tags: readonly SnapshotTag[], until: number): Promise<void> {
    const gitDir = repositoryDirectory(root, repository);
    const started = clock.now();
    await retainShared(repository, sha, until);
    for (let attempt = 1; ; attempt += 1) {
      const { manifest, key } = await locks.shared(gitDir, async () => {
        const shallow = await readShallow(gitDir);
        const ancestors = await retainedAncestors(git, gitDir, sha);
        const bases = await Promise.all(ancestors.map((base) => usableManifest(repository, base)));
        // Only on commits with a pack: a pack-less manifest requires a descendant, and building on it
        // could make a cycle. A whole repository builds only on whole bases (SharedManifest.whole).
        const fit = ancestors.filter((_, index) => {
          const base = bases[index];
          return base !== undefined && base.pack !== null && (shallow.length > 0 || base.whole);
        });
        const requires = await independent(git, gitDir, fit);
        const key = packKey(repository, sha, clock.now(), randomUUID());
        const tagObjects = [...new Set(tags.map((tag) => tag.object))];
        const info = await blobs.put(key, packStream(git, gitDir, sha, tagObjects, requires));
        const manifest: SharedManifest = { version: 1, commit: sha, requires, tags, shallow, whole: shallow.length === 0, pack: key, packBytes: info.size };
        return { manifest, key };
      });
      const stillUsable = await Promise.all(manifest.requires.map((base) => usableBase(repository, base)));
      if (stillUsable.includes(false)) {
        await blobs.delete(key);
        if (attempt < 3) continue;
        throw sharedPartError(manifestKey(repository, manifest.requires[stillUsable.indexOf(false)] ?? ''), 'was pruned while a commit built on it was published; send the commit again');
      }
      for (const base of manifest.requires) await retainShared(repository, base, until);
      await blobs.put(manifestKey(repository, sha), Buffer.from(JSON.stringify(manifest)));
      published.set(`${repository}:${sha}`, tagSetOf(tags) ?? '');
      logger.debug({ repository, commit: sha, requires: manifest.requires.length, bytes: manifest.packBytes, ms: clock.now() - started }, 'published a snapshot');
      return;
    }
  }

  /**
   * Publishes a commit this node holds unless the shared store has it (with these tags, when
   * given: a negotiation records the offer's tags; a retain leaves the recorded ones alone), and
   * retains it there until `until`.
   */
  async function ensurePublished(repository: string, sha: string, until: number, tags?: readonly SnapshotTag[]): Promise<void> {
    const id = `${repository}:${sha}`;
    const known = published.get(id);
    const current = tags === undefined ? undefined : (tagSetOf(tags) ?? '');
    if (known === undefined || (current !== undefined && known !== current)) {
      const manifest = await readManifest(blobs, repository, sha).catch(() => undefined);
      const doomed = manifest !== undefined && !(await usableBase(repository, sha));
      if (manifest === undefined || doomed || (current !== undefined && (tagSetOf(manifest.tags) ?? '') !== current)) {
        await publish(repository, sha, tags ?? (await local.history(repository, sha)).tags, until);
        return;
      }
      published.set(id, tagSetOf(manifest.tags) ?? '');
    }
    await retainShared(repository, sha, until);
  }

  /**
   * Makes a commit this node holds (a negotiation's `common`) materialisable by every node, and
   * retains it there until `until`: when it is not published itself, as a manifest without a
   * pack that requires a published commit reaching it (an interior commit of a published
   * history, or the parent of a working-tree commit), or else published with its own pack.
   */
  async function ensureAvailable(repository: string, sha: string, until: number): Promise<void> {
    if (published.has(`${repository}:${sha}`) || (await usableBase(repository, sha))) {
      await retainShared(repository, sha, until);
      return;
    }
    const gitDir = repositoryDirectory(root, repository);
    const reaching = await locks.shared(gitDir, () => retainedDescendants(git, gitDir, sha));
    const usable = await Promise.all(reaching.map((tip) => usableManifest(repository, tip)));
    const cut = (await readShallow(gitDir)).length > 0;
    const index = usable.findIndex((manifest) => manifest !== undefined && (cut || manifest.whole));
    const tip = reaching[index];
    const tipManifest = usable[index];
    if (tip === undefined || tipManifest === undefined) {
      await publish(repository, sha, [], until);
      return;
    }
    await retainShared(repository, tip, until);
    await retainShared(repository, sha, until);
    const manifest: SharedManifest = {
      version: 1,
      commit: sha,
      requires: [tip],
      tags: [],
      shallow: tipManifest.shallow,
      whole: tipManifest.whole,
      pack: null,
      packBytes: 0,
    };
    await blobs.put(manifestKey(repository, sha), Buffer.from(JSON.stringify(manifest)));
    published.set(`${repository}:${sha}`, '');
  }

  /**
   * Makes the offered commit, or else the nearest candidate any node holds, present here. A
   * shared part that cannot be read is only logged: the sender then sends it, and its
   * publication replaces the bad part.
   */
  async function fetchNearest(repository: string, commit: string, candidates: readonly string[]): Promise<void> {
    const tryLocal = async (sha: string): Promise<boolean> =>
      ensureLocal(repository, sha).catch((error: unknown) => {
        logger.warn({ err: error, repository, sha }, 'a shared snapshot could not be materialised for a negotiation');
        return false;
      });
    if (await tryLocal(commit)) return;
    const held = await Promise.all(candidates.map((sha) => local.hasCommit(repository, sha)));
    const firstHeld = held.indexOf(true);
    // Only nearer candidates than the first one held here can do better (and only so many lookups).
    const nearer = candidates.slice(0, Math.min(firstHeld === -1 ? candidates.length : firstHeld, MAX_SHARED_CANDIDATES));
    const shared = await Promise.all(nearer.map(async (sha) => (await blobs.stat(manifestKey(repository, sha))) !== undefined));
    for (const [index, sha] of nearer.entries()) {
      if (shared[index] === true && (await tryLocal(sha))) return;
    }
  }

  return {
    async importTar(repository, archive, meta) {
      if (meta.parent !== undefined) {
        // The parent is used when it can be had (as on one node); an unreadable shared copy only costs the link.
        await ensureLocal(repository, assertObjectId(meta.parent, 'parent')).catch((error: unknown) =>
          logger.warn({ err: error, repository, parent: meta.parent }, 'the parent of a snapshot could not be materialised'),
        );
      }
      const commit = await local.importTar(repository, archive, meta);
      await publish(repository, commit.sha, [], meta.retainUntil ?? clock.now() + options.importRetentionMs);
      return commit;
    },

    async negotiate(repository, offer) {
      const checked = checkOffer(offer);
      repositoryDirectory(root, repository);
      await fetchNearest(repository, checked.commit, checked.candidates);
      const answer = await local.negotiate(repository, checked);
      if (answer.complete) await ensurePublished(repository, checked.commit, checked.retainUntil, checked.tags);
      else if (answer.common !== undefined) {
        // The pack may reach another node (a proxy in front): that node materialises `common` first.
        await ensureAvailable(repository, answer.common, checked.retainUntil);
        await blobs.put(commonKey(repository, checked.commit, answer.common, roundUp(checked.retainUntil)), Buffer.alloc(0));
      }
      return answer;
    },

    async importPack(repository, pack, meta) {
      const commit = assertObjectId(meta.commit);
      repositoryDirectory(root, repository);
      for await (const info of blobs.list(`${repositoryPrefix(repository)}common/${commit}/`)) {
        const base = parseSharedKey(info.key)?.kind === 'common' ? info.key.split('/').at(-2) : undefined;
        if (base === undefined) continue;
        // A base that cannot be had here makes the import fail with git's own word for what is missing.
        await ensureLocal(repository, base).catch((error: unknown) => logger.warn({ err: error, repository, commit, base }, 'the base a negotiation named could not be materialised'));
      }
      const imported = await local.importPack(repository, pack, meta);
      await publish(repository, imported.sha, meta.tags, meta.retainUntil);
      return imported;
    },

    async history(repository, sha) {
      assertObjectId(sha);
      if (!(await local.hasCommit(repository, sha))) {
        await ensureLocal(repository, sha);
        return local.history(repository, sha);
      }
      // Held here: the tags may have been recorded anew on another node since (a later offer).
      const [mine, manifest] = await Promise.all([local.history(repository, sha), readManifest(blobs, repository, sha).catch(() => undefined)]);
      if (manifest === undefined || tagSetOf(manifest.tags) === tagSetOf(mine.tags)) return mine;
      await flights.run(`tags:${repository}:${sha}:${tagSetOf(manifest.tags) ?? ''}`, () => materialise(repository, manifest));
      return local.history(repository, sha);
    },

    async hasCommit(repository, sha) {
      repositoryDirectory(root, repository);
      return ensureLocal(repository, assertObjectId(sha));
    },

    async readFile(repository, sha, path) {
      await ensureLocal(repository, assertObjectId(sha));
      return local.readFile(repository, sha, path);
    },

    async archive(repository, sha) {
      await ensureLocal(repository, assertObjectId(sha));
      return local.archive(repository, sha);
    },

    repositoryPath(repository) {
      return local.repositoryPath(repository);
    },

    async retain(repository, sha, expiresAt) {
      await ensureLocal(repository, assertObjectId(sha));
      await local.retain(repository, sha, expiresAt);
      await ensurePublished(repository, sha, expiresAt);
    },

    async prune(now) {
      const pruned = await local.prune(now);
      // This node's notes of what it wrote may name deleted keys: a later retain writes again.
      written.clear();
      published.clear();
      await pruneShared(blobs, now, graceMs, logger);
      return pruned;
    },
  };
}
