import { randomUUID } from 'node:crypto';
import { readdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import { NotFoundError, type Logger } from '../../core/kernel/index.js';
import type { Clock, SnapshotCommit, SnapshotStore, SnapshotTag } from '../../core/ports/index.js';
import { fastImport } from './fast-import.js';
import { cleanGit, gitOutputStream, runGit, type Git } from './git-process.js';
import { KeyedLocks } from './keyed-locks.js';
import { ObjectReaders } from './object-reader.js';
import { checkOffer, checkPackMeta } from './offer-meta.js';
import { receivePack, removeQuarantines } from './pack-import.js';
import { commitTree, readTreeFile, treePath, type ReadObject } from './read-file.js';
import { ensureRepository, repositoryExists } from './repository-init.js';
import { assertObjectId, repositoryDirectory } from './repository-names.js';
import { RetentionHints } from './retention-hints.js';
import { deleteRefs, IMPORT_REFS, listSvcRefs, retainCommit, type SvcRefs } from './retention-refs.js';
import { readShallow, updateShallow } from './shallow-file.js';
import { checkExpiry, checkMeta } from './snapshot-meta.js';
import { readTagSet, TagSetCache, tagSetCommands, TagSetHints, tagSetOf } from './tag-sets.js';
import { readTarEntries } from './tar-reader.js';

export interface GitSnapshotStoreOptions {
  /** Directory holding `<owner>/<repo>.git`; also git's HOME, so no user config is read. */
  readonly root: string;
  readonly logger: Logger;
  readonly clock: Clock;
  /**
   * How long an imported commit stays retained on its own, so a `prune` between `importTar` and
   * the caller's `retain` cannot collect it. Default one day.
   */
  readonly importRetentionMs?: number;
  /** The git executable; default `git` on PATH. */
  readonly gitBinary?: string;
  /**
   * Retention expiries are rounded up to a multiple of this (default 1 ms: exact). With a
   * coarser step, an upload's retention and the submission's retain a moment later fall on the
   * same date, so the second needs no git work (retention-hints.ts); a commit is kept at most
   * one step longer than asked.
   */
  readonly retentionStepMs?: number;
  /** How long an idle repository keeps its `git cat-file --batch` reader; default 30 s. */
  readonly readerIdleMs?: number;
  /** The repository locks, when another part (the shared store's export) must take them too. */
  readonly locks?: KeyedLocks;
}

const DEFAULT_IMPORT_RETENTION_MS = 24 * 60 * 60 * 1000;

/**
 * Snapshots as commits in one bare repository per repository: a sender's own history arrives
 * as git packs (negotiate, then importPack: only what the store lacks), a plain directory as a
 * tar that `git fast-import` turns into one commit (no checkout on disk). A commit is kept by
 * its retention refs, and with it its history and the tags recorded with it (tag-sets.ts).
 *
 * Concurrency, per repository and per process: imports run side by side (each fast-import has
 * its own process, pack and temporary ref; two at once was checked), ref updates take turns,
 * and `prune` waits for all of them, because `gc --prune=now` deletes the temporary packs of
 * imports still running. Each node has its own root: several nodes share snapshots through
 * the shared blob store (shared-snapshot-store.ts), never by sharing a root.
 */
export function createGitSnapshotStore(options: GitSnapshotStoreOptions): SnapshotStore {
  const { root, logger, clock } = options;
  const git: Git = cleanGit(root, options.gitBinary);
  const importRetentionMs = options.importRetentionMs ?? DEFAULT_IMPORT_RETENTION_MS;
  const step = Math.max(1, Math.ceil(options.retentionStepMs ?? 1));
  const roundUp = (until: number): number => Math.ceil(until / step) * step;
  const readers = new ObjectReaders(git, options.readerIdleMs);
  const reader = (gitDir: string): ReadObject => (name) => readers.read(gitDir, name);
  const hints = new RetentionHints();
  // `shared`/`exclusive` on the directory: imports and retains share, prune excludes them.
  // The `refs:` key serialises ref transactions, which may touch the same commit's refs.
  const locks = options.locks ?? new KeyedLocks();
  const withRefs = <T>(gitDir: string, work: () => Promise<T>): Promise<T> => locks.exclusive(`refs:${gitDir}`, work);
  const tagSets = new TagSetCache();
  const tagHints = new TagSetHints();

  async function commitExists(gitDir: string, sha: string): Promise<boolean> {
    return (await commitTree(reader(gitDir), sha)) !== undefined;
  }

  /** The commit's tree; NotFoundError when the repository does not hold the commit. */
  async function requireCommit(repository: string, gitDir: string, sha: string): Promise<string> {
    const tree = (await repositoryExists(gitDir)) ? await commitTree(reader(gitDir), sha) : undefined;
    if (tree === undefined) {
      throw new NotFoundError(`snapshot ${sha} is not in ${repository}`, { code: 'snapshot_not_found', details: { repository, sha } });
    }
    return tree;
  }

  /**
   * Retains under the refs lock, through the hints (see retention-hints.ts for why that is
   * safe); `tags`, when given, become the commit's recorded tags in the same transaction.
   */
  async function retainKnown(gitDir: string, sha: string, until: number, also: readonly string[] = [], tags?: readonly SnapshotTag[]): Promise<void> {
    await withRefs(gitDir, async () => {
      const tagCommands = tags === undefined ? [] : await tagSetCommands(git, gitDir, sha, tags, tagHints.get(gitDir, sha));
      const latest = await retainCommit(git, gitDir, sha, until, [...also, ...tagCommands], hints.get(gitDir, sha));
      hints.set(gitDir, sha, latest);
      if (tags !== undefined) tagHints.set(gitDir, sha, tagSetOf(tags));
    });
  }

  /** The first of `candidates` the repository holds as a commit (they come nearest first). */
  async function firstHeld(gitDir: string, candidates: readonly string[]): Promise<string | undefined> {
    const read = reader(gitDir);
    const held = await Promise.all(candidates.map(async (sha) => (await commitTree(read, sha)) !== undefined));
    return candidates[held.indexOf(true)];
  }

  async function holdsNoRefs(gitDir: string): Promise<boolean> {
    const { stdout } = await runGit(git, ['for-each-ref', '--count=1', '--format=%(refname)'], { gitDir });
    return stdout.length === 0;
  }

  /** Under the repository's exclusive lock only. */
  async function removeRepository(gitDir: string): Promise<void> {
    hints.forget(gitDir);
    tagHints.forget(gitDir);
    readers.close(gitDir);
    await rm(gitDir, { recursive: true, force: true });
    logger.debug({ gitDir }, 'removed an empty snapshot repository');
  }

  async function pruneRepository(gitDir: string, now: number): Promise<number> {
    return locks.exclusive(gitDir, async () => {
      const refs = await listSvcRefs(git, gitDir);
      const expired = refs.retention.filter((r) => r.expiresAt <= now).map((r) => r.ref);
      // No import runs here while we hold the lock: an import ref or a quarantine left now was left by a crash.
      await removeQuarantines(gitDir);
      const doomed = [...expired, ...refs.imports, ...unkeptTags(refs, now)];
      const kept = refs.retention.filter((r) => r.expiresAt > now);
      if (doomed.length === 0) {
        // Nothing kept and nothing to prune: a repository no upload ever completed in (a refused
        // first upload). It holds nothing a later upload could build on: it goes.
        if (await holdsNoRefs(gitDir)) {
          await removeRepository(gitDir);
          return 0;
        }
        hints.load(gitDir, kept);
        return 0;
      }
      // Before any ref goes: a hint must never name a deleted ref (retention-hints.ts).
      hints.forget(gitDir);
      tagHints.forget(gitDir);
      await deleteRefs(git, gitDir, doomed);
      hints.load(gitDir, kept);
      try {
        await runGit(git, ['-c', 'gc.auto=0', 'gc', '--prune=now', '--quiet'], { gitDir });
      } finally {
        // The reader may still see pruned objects in packs it mapped before the repack.
        readers.close(gitDir);
      }
      await removeCrashReports(gitDir);
      // Every snapshot of the repository expired: gc kept nothing, the empty repository goes too.
      if (await holdsNoRefs(gitDir)) await removeRepository(gitDir);
      logger.debug({ gitDir, expired: expired.length, staleImports: refs.imports.length }, 'pruned snapshots');
      return expired.length;
    });
  }

  return {
    async importTar(repository, archive, meta) {
      const gitDir = repositoryDirectory(root, repository);
      const checked = checkMeta(meta);
      return locks.shared(gitDir, async () => {
        await ensureRepository(git, gitDir);
        const parent = checked.parent !== undefined && (await commitExists(gitDir, checked.parent)) ? checked.parent : undefined;
        const ref = `${IMPORT_REFS}${randomUUID()}`;
        const { parent: _asked, retainUntil, maxUnpackedBytes, ...header } = checked;
        const imported = await fastImport(git, gitDir, readTarEntries(archive, maxUnpackedBytes), { ...header, ref, ...(parent === undefined ? {} : { parent }) });
        const read = reader(gitDir);
        const sha = (await read(`${ref}^{commit}`))?.oid ?? '';
        const tree = await commitTree(read, sha);
        if (tree === undefined) throw new Error(`git fast-import left no commit on ${ref}`);
        await retainKnown(gitDir, sha, roundUp(retainUntil ?? clock.now() + importRetentionMs), [`delete ${ref}`]);
        const commit: SnapshotCommit = { sha, tree, files: imported.files, bytes: imported.bytes };
        logger.debug({ repository, ...commit, parent: parent ?? null }, 'imported snapshot');
        return commit;
      });
    },

    async negotiate(repository, offer) {
      const gitDir = repositoryDirectory(root, repository);
      const { commit, tags, candidates, shallow, retainUntil } = checkOffer(offer);
      const tagObjects = [...new Set(tags.map((tag) => tag.object))];
      if (!(await repositoryExists(gitDir))) return { complete: false, missingObjects: tagObjects };
      return locks.shared(gitDir, async () => {
        const read = reader(gitDir);
        // A store whose history is cut somewhere holds no commit's whole history for a sender
        // that has it all: such a sender sends everything, which makes the store whole again.
        const cut = !shallow && (await readShallow(gitDir)).length > 0;
        const [held, present] = await Promise.all([
          cut ? Promise.resolve(false) : commitTree(read, commit).then((tree) => tree !== undefined),
          Promise.all(tagObjects.map(async (id) => (await read(id)) !== undefined)),
        ]);
        const missingObjects = tagObjects.filter((_, index) => present[index] !== true);
        const until = roundUp(retainUntil);
        if (held && missingObjects.length === 0) {
          await retainKnown(gitDir, commit, until, [], tags);
          return { complete: true };
        }
        // Kept until the pack arrives: a pack may leave out what `common` reaches, or be thin against it.
        const common = held ? commit : cut ? undefined : await firstHeld(gitDir, candidates);
        if (common !== undefined) await retainKnown(gitDir, common, until);
        return { complete: false, ...(common === undefined ? {} : { common }), missingObjects };
      });
    },

    async importPack(repository, pack, meta) {
      const gitDir = repositoryDirectory(root, repository);
      const { commit, tags, shallow, retainUntil } = checkPackMeta(meta);
      return locks.shared(gitDir, async () => {
        await ensureRepository(git, gitDir);
        const tagObjects = tags.map((tag) => tag.object);
        const storeShallow = await readShallow(gitDir);
        const received = await receivePack(git, gitDir, pack, { commit, tagObjects, shallow: [...new Set([...storeShallow, ...shallow])] });
        await locks.exclusive(`shallow:${gitDir}`, () => updateShallow(gitDir, reader(gitDir), shallow));
        await retainKnown(gitDir, commit, roundUp(retainUntil), [], tags);
        logger.debug({ repository, commit, tags: tags.length, ...received }, 'imported pack');
        return { sha: commit, ...received };
      });
    },

    async history(repository, sha) {
      const gitDir = repositoryDirectory(root, repository);
      assertObjectId(sha);
      if (!(await repositoryExists(gitDir))) return { tags: [], shallow: [] };
      return locks.shared(gitDir, async () => {
        const [tags, shallow] = await Promise.all([readTagSet(git, gitDir, sha, tagSets), readShallow(gitDir)]);
        return { tags, shallow };
      });
    },

    async hasCommit(repository, sha) {
      const gitDir = repositoryDirectory(root, repository);
      assertObjectId(sha);
      return (await repositoryExists(gitDir)) && commitExists(gitDir, sha);
    },

    async archive(repository, sha) {
      const gitDir = repositoryDirectory(root, repository);
      assertObjectId(sha);
      await requireCommit(repository, gitDir, sha);
      return archiveStream(git, gitDir, sha);
    },

    async readFile(repository, sha, path) {
      const gitDir = repositoryDirectory(root, repository);
      assertObjectId(sha);
      const inTree = treePath(path);
      return locks.shared(gitDir, async () => readTreeFile(reader(gitDir), await requireCommit(repository, gitDir, sha), inTree));
    },

    repositoryPath(repository) {
      return repositoryDirectory(root, repository);
    },

    async retain(repository, sha, expiresAt) {
      const gitDir = repositoryDirectory(root, repository);
      assertObjectId(sha);
      const until = roundUp(checkExpiry(expiresAt));
      await locks.shared(gitDir, async () => {
        const known = hints.get(gitDir, sha);
        // A hint is a ref this process wrote or listed and prune has not removed: the commit is there.
        if (typeof known === 'number' && known >= until) return;
        if (typeof known !== 'number') await requireCommit(repository, gitDir, sha);
        await retainKnown(gitDir, sha, until);
      });
    },

    async prune(now) {
      let pruned = 0;
      for (const gitDir of await repositoryDirectories(root)) pruned += await pruneRepository(gitDir, now);
      return pruned;
    },
  };
}

/**
 * Tag records whose commit is no longer retained at `now`, and tag sets no retained commit
 * names any more: a commit's tags go with its last retention ref.
 */
function unkeptTags(refs: SvcRefs, now: number): string[] {
  const kept = new Set(refs.retention.filter((r) => r.expiresAt > now).map((r) => r.sha));
  const records = refs.tagged.filter((r) => r.sha !== undefined && !kept.has(r.sha));
  const liveSets = new Set(refs.tagged.filter((r) => r.sha !== undefined && kept.has(r.sha)).map((r) => r.set));
  return [...records.map((r) => r.ref), ...refs.tagSets.filter((r) => !liveSets.has(r.set)).map((r) => r.ref)];
}

/**
 * `git archive` as a stream. The stream ends only once git exited 0, and errors with git's
 * stderr otherwise, so a reader never takes a cut archive for a whole one; destroying it stops git.
 */
function archiveStream(git: Git, gitDir: string, sha: string): Readable {
  return gitOutputStream(git, ['archive', '--format=tar.gz', sha], gitDir);
}

/** Every `<owner>/<repo>.git` under the root (temporary `~` directories of an init excluded). */
async function repositoryDirectories(root: string): Promise<string[]> {
  const found: string[] = [];
  for (const owner of await directories(root)) {
    for (const repo of await directories(join(root, owner))) {
      if (repo.endsWith('.git') && !repo.includes('~')) found.push(join(root, owner, repo));
    }
  }
  return found;
}

async function directories(path: string): Promise<string[]> {
  try {
    return (await readdir(path, { withFileTypes: true })).filter((e) => e.isDirectory()).map((e) => e.name).sort();
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw error;
  }
}

/**
 * fast-import leaves a crash report in the repository when it dies on its own (never on the
 * store's kill); its stderr was in the import's error already, so the file is only litter.
 */
async function removeCrashReports(gitDir: string): Promise<void> {
  for (const name of await readdir(gitDir)) {
    if (name.startsWith('fast_import_crash_')) await rm(join(gitDir, name), { force: true });
  }
}
