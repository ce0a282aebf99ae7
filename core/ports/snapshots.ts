import type { Readable } from 'node:stream';

/**
 * Working-tree snapshots kept as commits in a server-side bare repository per repository, so a
 * run's exact tree can be served to runners as a Git remote (or a tarball) later.
 */
export interface SnapshotCommit {
  /** The commit's object id (40 hex). */
  readonly sha: string;
  /** The tree's object id. */
  readonly tree: string;
  readonly files: number;
  readonly bytes: number;
}

export interface SnapshotMeta {
  readonly message: string;
  readonly authorName: string;
  readonly authorEmail: string;
  /** Epoch milliseconds for the commit's author and committer dates. */
  readonly timestamp: number;
  /** A commit the snapshot builds on (e.g. the HEAD it was taken from), when the store has it. */
  readonly parent?: string;
  /**
   * Epoch milliseconds until which the commit is retained, as `retain` would, in the import's
   * own ref update (default: the store's import retention, long enough for a later `retain`).
   */
  readonly retainUntil?: number;
  /**
   * The most bytes the archive may hold once gunzipped (its tar stream): a small gzip can unpack
   * to gigabytes. Past it the import fails with 413 `snapshot_too_large`. Default: no limit.
   */
  readonly maxUnpackedBytes?: number;
}

/** A tag of the sender's repository: `refs/tags/<name>` and the object it names (an annotated tag object or a commit). */
export interface SnapshotTag {
  readonly name: string;
  readonly object: string;
}

/**
 * A commit of the sender's own history offered to the store (`svc run` in a git work tree): the
 * run's commit, the tags that point into its history, and what the sender has that the store may
 * have too, so only the missing objects travel.
 */
export interface SnapshotOffer {
  /** The run's commit (the sender's HEAD, or a commit of its working tree on top of HEAD). */
  readonly commit: string;
  /** The tags reachable from `commit`, which a fetch of the commit's history gets too. */
  readonly tags: readonly SnapshotTag[];
  /** Commits the sender has, nearest first (HEAD, then first-parent ancestors, sparser further back). */
  readonly candidates: readonly string[];
  /** Whether the sender's history is shallow (cut at some commits); a shallow store then still counts as complete. */
  readonly shallow: boolean;
  /** Epoch milliseconds until which the commit (with its history and tags) is retained when it is recorded. */
  readonly retainUntil: number;
}

export type SnapshotNegotiation =
  /** The store holds the commit and every tag's object: the tags are recorded and the commit retained. */
  | { readonly complete: true }
  /**
   * A pack must follow (importPack): of the commit and the objects the store lacks. `common` is the
   * nearest candidate the store holds with its history (the pack may leave out everything
   * reachable from it, and may be thin against it); it is retained until `retainUntil`, so it is
   * still there when the pack arrives. `missingObjects`: the tags' objects the store lacks.
   */
  | { readonly complete: false; readonly common?: string; readonly missingObjects: readonly string[] };

/** What comes with a pack: the commit and tags it completes, and where the sender's history is cut. */
export interface SnapshotPackMeta {
  readonly commit: string;
  readonly tags: readonly SnapshotTag[];
  /** The sender's shallow commits (their parents are not sent); kept as the store's shallow boundary where their parents are missing. */
  readonly shallow: readonly string[];
  /** Epoch milliseconds until which the commit is retained. */
  readonly retainUntil: number;
}

export interface SnapshotPackImport {
  readonly sha: string;
  /** Objects in the pack as sent (before a thin pack's bases were added). */
  readonly objects: number;
  /** Bytes of the pack as sent. */
  readonly bytes: number;
}

/** What a fetch of a commit's history sees besides its objects. */
export interface SnapshotHistory {
  /** The tags recorded with the commit (the latest offer's). */
  readonly tags: readonly SnapshotTag[];
  /** The store's shallow commits (their parents are not held), which a server of the history must declare. */
  readonly shallow: readonly string[];
}

export interface SnapshotStore {
  /**
   * Stores a tar archive (optionally gzip-compressed) of a working tree as one commit in
   * `repository`'s bare repository. Paths are checked (no absolute paths, no `..`, no `.git/`);
   * regular files, executables and symlinks keep their modes.
   */
  importTar(repository: string, archive: Readable, meta: SnapshotMeta): Promise<SnapshotCommit>;
  /**
   * Offers a commit of the sender's history (see SnapshotOffer): answers what the store lacks, or,
   * when it lacks nothing, records the tags and retains the commit. Ids must be full object ids
   * and tag names valid ref names (InputError otherwise).
   */
  negotiate(repository: string, offer: SnapshotOffer): Promise<SnapshotNegotiation>;
  /**
   * Stores a git pack (thin or not) that completes `meta.commit` and its tags, streamed into
   * `git index-pack` (never held in memory) in a quarantine that is dropped unless the pack is
   * whole, well-formed and, with what the store holds, has every object the commit and tags
   * reach (up to the shallow commits). Then records the tags and retains the commit. A bad or
   * incomplete pack is an InputError naming the problem and leaves nothing behind.
   */
  importPack(repository: string, pack: Readable, meta: SnapshotPackMeta): Promise<SnapshotPackImport>;
  /** The tags and shallow boundary a fetch of the commit's history sees (none for a commit with no tags recorded). */
  history(repository: string, sha: string): Promise<SnapshotHistory>;
  /** Whether the repository holds this commit. */
  hasCommit(repository: string, sha: string): Promise<boolean>;
  /**
   * The UTF-8 text of the file at `path` in the commit, or undefined when the commit has no
   * regular file there (nothing, a directory, a symlink or a submodule). `path` is relative to
   * the tree's root (`./` and doubled slashes are fine); an absolute path or a `..` segment is an
   * InputError, and a commit the repository does not hold a NotFoundError.
   */
  readFile(repository: string, sha: string, path: string): Promise<string | undefined>;
  /** A tar.gz of the commit's tree (what a tarball download serves). */
  archive(repository: string, sha: string): Promise<Readable>;
  /** Absolute path of the bare repository (for the Git HTTP relay). */
  repositoryPath(repository: string): string;
  /**
   * Keeps a commit reachable (a ref), and with it its history and recorded tags, until
   * `expiresAt`; `prune` drops expired ones (history shared with a commit still kept stays).
   */
  retain(repository: string, sha: string, expiresAt: number): Promise<void>;
  prune(now: number): Promise<number>;
}
