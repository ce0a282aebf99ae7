import type { Logger } from '../../core/kernel/index.js';
import type { BlobStore } from '../../core/ports/index.js';
import { doomedKey, manifestKey, parseSharedKey, readManifest, SHARED_PREFIX, type SharedManifest } from './shared-layout.js';

interface RepositoryKeys {
  readonly manifests: Set<string>;
  /** The latest retention per commit, and every retention key. */
  readonly retainedUntil: Map<string, number>;
  readonly retentionKeys: { readonly key: string; readonly sha: string; readonly until: number }[];
  readonly doomed: Map<string, { readonly key: string; readonly at: number }[]>;
  readonly packs: { readonly key: string; readonly sha: string; readonly at: number }[];
  readonly commons: { readonly key: string; readonly until: number }[];
}

export interface SharedPruneResult {
  /** Commits whose manifest and pack were deleted. */
  readonly deleted: number;
  /** Commits marked for deletion by a later prune. */
  readonly doomed: number;
}

/**
 * Prunes the shared snapshot store, safely while other nodes publish, materialise and prune:
 *
 * - a commit is live while one of its retention keys is in the future, and so is every commit a
 *   live commit requires (a base is never deleted under a retained commit);
 * - a commit that is not live is first marked doomed (`doomed/<sha>/<now>`); only a prune at least
 *   `graceMs` later that still finds it not live deletes it (manifest first, then its packs, its
 *   retention and doomed keys). A node publishing a commit on top of it checks, just before it
 *   writes its manifest, that its bases are neither doomed nor gone, so a publication that
 *   started before the mark finishes within the grace and keeps its base live;
 * - several nodes pruning at once compute the same thing; a delete of what is already gone is no
 *   failure;
 * - packs no manifest names (a publication that crashed, or lost a race to write the same
 *   commit) go once they are older than the grace.
 */
export async function pruneShared(blobs: BlobStore, now: number, graceMs: number, logger: Logger): Promise<SharedPruneResult> {
  const repositories = new Map<string, RepositoryKeys>();
  const of = (repository: string): RepositoryKeys => {
    let keys = repositories.get(repository);
    if (keys === undefined) {
      keys = { manifests: new Set(), retainedUntil: new Map(), retentionKeys: [], doomed: new Map(), packs: [], commons: [] };
      repositories.set(repository, keys);
    }
    return keys;
  };
  for await (const info of blobs.list(SHARED_PREFIX)) {
    const key = parseSharedKey(info.key);
    if (key === undefined) continue;
    const keys = of(key.repository);
    if (key.kind === 'manifest') keys.manifests.add(key.sha);
    else if (key.kind === 'common') keys.commons.push({ key: info.key, until: key.until });
    else if (key.kind === 'pack') keys.packs.push({ key: info.key, sha: key.sha, at: key.at });
    else if (key.kind === 'retain') {
      keys.retentionKeys.push({ key: info.key, sha: key.sha, until: key.until });
      keys.retainedUntil.set(key.sha, Math.max(key.until, keys.retainedUntil.get(key.sha) ?? -1));
    } else keys.doomed.set(key.sha, [...(keys.doomed.get(key.sha) ?? []), { key: info.key, at: key.at }]);
  }
  let deleted = 0;
  let doomed = 0;
  for (const [repository, keys] of repositories) {
    const manifests = new Map<string, SharedManifest>();
    for (const sha of keys.manifests) {
      try {
        const manifest = await readManifest(blobs, repository, sha);
        if (manifest !== undefined) manifests.set(sha, manifest);
      } catch (error) {
        // A corrupt manifest is reported by every read of it; it cannot hold a base, and is pruned as unretained.
        logger.warn({ err: error, repository, sha }, 'unreadable shared snapshot manifest');
      }
    }
    const live = new Set<string>();
    const visit = (sha: string): void => {
      if (live.has(sha)) return;
      live.add(sha);
      for (const base of manifests.get(sha)?.requires ?? []) visit(base);
    };
    for (const sha of keys.manifests) if ((keys.retainedUntil.get(sha) ?? -1) > now) visit(sha);

    for (const sha of keys.manifests) {
      const marks = keys.doomed.get(sha) ?? [];
      if (live.has(sha)) {
        for (const mark of marks) await blobs.delete(mark.key);
        continue;
      }
      if (marks.length === 0) {
        await blobs.put(doomedKey(repository, sha, now), Buffer.alloc(0));
        doomed += 1;
        continue;
      }
      if (Math.min(...marks.map((mark) => mark.at)) > now - graceMs) continue;
      await blobs.delete(manifestKey(repository, sha));
      for (const pack of keys.packs.filter((p) => p.sha === sha)) await blobs.delete(pack.key);
      for (const retention of keys.retentionKeys.filter((r) => r.sha === sha)) await blobs.delete(retention.key);
      for (const mark of marks) await blobs.delete(mark.key);
      deleted += 1;
    }
    // Past retention keys of live commits, and keys of commits with no manifest, once older than the grace.
    for (const retention of keys.retentionKeys) {
      const latest = keys.retainedUntil.get(retention.sha) ?? -1;
      const gone = !keys.manifests.has(retention.sha) && retention.until <= now - graceMs;
      if (gone || (retention.until < latest && retention.until <= now)) await blobs.delete(retention.key);
    }
    for (const [sha, marks] of keys.doomed) {
      if (!keys.manifests.has(sha)) for (const mark of marks) await blobs.delete(mark.key);
    }
    // A negotiation's note for its pack lasts as long as the retention it asked for.
    for (const common of keys.commons) if (common.until <= now) await blobs.delete(common.key);
    for (const pack of keys.packs) {
      if (pack.at > now - graceMs) continue;
      const named = manifests.get(pack.sha)?.pack;
      if (named !== pack.key && (named !== undefined || !keys.manifests.has(pack.sha))) await blobs.delete(pack.key);
    }
  }
  if (deleted + doomed > 0) logger.debug({ deleted, doomed }, 'pruned shared snapshots');
  return { deleted, doomed };
}
