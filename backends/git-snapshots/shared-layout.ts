import { UnavailableError } from '../../core/kernel/index.js';
import type { BlobStore, SnapshotTag } from '../../core/ports/index.js';

/**
 * Where the shared snapshot store keeps a repository's commits in the blob store, under
 * `git-snapshots/<owner>/<repo>/`:
 *
 * - `commits/<sha>.json`: the manifest, what a node needs to materialise the commit (written last);
 * - `packs/<sha>.<ms>.<id>.pack`: the commit's pack, thin against the commits it requires
 *   (`<ms>` is when it was written, so an orphan left by a crash can be aged without a stat);
 * - `retain/<sha>/<until>`: empty; the commit is retained until the latest `<until>`;
 * - `doomed/<sha>/<ms>`: empty; a prune found the commit unretained and unneeded at `<ms>`, and
 *   a later prune deletes it if that is still so a grace period after (two-phase delete);
 * - `common/<sha>/<common>/<until>`: empty; a negotiation told the sender of `<sha>` that it may
 *   leave out what `<common>` reaches, so whichever node the pack then reaches materialises
 *   `<common>` first (a proxy may send the two requests to two nodes).
 */
export const SHARED_PREFIX = 'git-snapshots/';

export interface SharedManifest {
  readonly version: 1;
  readonly commit: string;
  /** Published commits the pack is thin against (and leaves out everything they reach): materialised first. */
  readonly requires: readonly string[];
  readonly tags: readonly SnapshotTag[];
  /** The publishing node's shallow commits: where the history may stop. */
  readonly shallow: readonly string[];
  /**
   * Whether the history materialised from this manifest and its requires is whole (no shallow
   * boundary anywhere in the chain): a node whose repository is whole builds only on whole bases,
   * since a pack thin against a cut base leaves out the history the base lacks.
   */
  readonly whole: boolean;
  /**
   * The pack's blob key; null for a commit that its `requires` hold already (an interior commit of
   * a published history that a negotiation named as `common`): materialising them is enough.
   */
  readonly pack: string | null;
  readonly packBytes: number;
}

export function repositoryPrefix(repository: string): string {
  return `${SHARED_PREFIX}${repository}/`;
}

export function manifestKey(repository: string, sha: string): string {
  return `${repositoryPrefix(repository)}commits/${sha}.json`;
}

export function packKey(repository: string, sha: string, at: number, id: string): string {
  return `${repositoryPrefix(repository)}packs/${sha}.${at}.${id}.pack`;
}

export function retentionKey(repository: string, sha: string, until: number): string {
  return `${repositoryPrefix(repository)}retain/${sha}/${until}`;
}

export function commonKey(repository: string, sha: string, common: string, until: number): string {
  return `${repositoryPrefix(repository)}common/${sha}/${common}/${until}`;
}

export function doomedKey(repository: string, sha: string, at: number): string {
  return `${repositoryPrefix(repository)}doomed/${sha}/${at}`;
}

/** One key of the shared snapshot layout, parsed (undefined for a key that is none of ours). */
export type SharedKey =
  | { readonly kind: 'manifest'; readonly repository: string; readonly sha: string }
  | { readonly kind: 'pack'; readonly repository: string; readonly sha: string; readonly at: number }
  | { readonly kind: 'retain'; readonly repository: string; readonly sha: string; readonly until: number }
  | { readonly kind: 'doomed'; readonly repository: string; readonly sha: string; readonly at: number }
  | { readonly kind: 'common'; readonly repository: string; readonly sha: string; readonly until: number };

const SHA = '([0-9a-f]{40}|[0-9a-f]{64})';
const KEY = new RegExp(`^${SHARED_PREFIX}([^/]+/[^/]+)/(?:commits/${SHA}\\.json|packs/${SHA}\\.(\\d+)\\.[^/]+\\.pack|(retain|doomed|common)/${SHA}/(?:${SHA}/)?(\\d+))$`);

export function parseSharedKey(key: string): SharedKey | undefined {
  const m = KEY.exec(key);
  if (m === null) return undefined;
  const [, repository = '', manifestSha, packSha, packAt, kind, sha = '', common, number] = m;
  if (manifestSha !== undefined) return { kind: 'manifest', repository, sha: manifestSha };
  if (packSha !== undefined) return { kind: 'pack', repository, sha: packSha, at: Number(packAt) };
  if ((kind === 'common') !== (common !== undefined)) return undefined;
  if (kind === 'common') return { kind: 'common', repository, sha, until: Number(number) };
  return kind === 'retain' ? { kind: 'retain', repository, sha, until: Number(number) } : { kind: 'doomed', repository, sha, at: Number(number) };
}

/** The part of the shared store named by `key` is missing or unreadable: 503 naming the blob. */
export function sharedPartError(key: string, problem: string, cause?: unknown): UnavailableError {
  return new UnavailableError(`shared snapshot part ${key} ${problem}`, {
    code: 'snapshot_part_unreadable',
    details: { blob: key },
    ...(cause === undefined ? {} : { cause }),
  });
}

/** The commit's manifest, or undefined when the shared store does not hold the commit. */
export async function readManifest(blobs: BlobStore, repository: string, sha: string): Promise<SharedManifest | undefined> {
  const key = manifestKey(repository, sha);
  const stream = await blobs.get(key);
  if (stream === undefined) return undefined;
  const chunks: Buffer[] = [];
  let size = 0;
  try {
    for await (const chunk of stream as AsyncIterable<Buffer>) {
      size += chunk.length;
      // A manifest is a few hundred bytes per tag: more than this is not one of ours.
      if (size > 4 * 1024 * 1024) throw new Error('is larger than any manifest');
      chunks.push(chunk);
    }
  } catch (error) {
    stream.destroy();
    throw sharedPartError(key, `could not be read: ${(error as Error).message}`, error);
  }
  return parseManifest(key, Buffer.concat(chunks).toString('utf8'), sha);
}

function parseManifest(key: string, text: string, sha: string): SharedManifest {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (error) {
    throw sharedPartError(key, 'is not JSON (corrupt)', error);
  }
  const m = data as Partial<SharedManifest> | null;
  const ids = (value: unknown): value is string[] => Array.isArray(value) && value.every((id) => typeof id === 'string' && new RegExp(`^${SHA}$`).test(id));
  const tags = (value: unknown): value is SnapshotTag[] =>
    Array.isArray(value) && value.every((tag: Partial<SnapshotTag> | null) => typeof tag?.name === 'string' && typeof tag.object === 'string');
  if (
    m === null ||
    typeof m !== 'object' ||
    m.version !== 1 ||
    m.commit !== sha ||
    !ids(m.requires) ||
    !ids(m.shallow) ||
    typeof m.whole !== 'boolean' ||
    !tags(m.tags) ||
    (typeof m.pack !== 'string' && m.pack !== null) ||
    typeof m.packBytes !== 'number'
  ) {
    throw sharedPartError(key, 'is not a snapshot manifest of this commit (corrupt)');
  }
  return { version: 1, commit: m.commit, requires: m.requires, tags: m.tags, shallow: m.shallow, whole: m.whole, pack: m.pack, packBytes: m.packBytes };
}
