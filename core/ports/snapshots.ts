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
}

export interface SnapshotStore {
  /**
   * Stores a tar archive (optionally gzip-compressed) of a working tree as one commit in
   * `repository`'s bare repository. Paths are checked (no absolute paths, no `..`, no `.git/`);
   * regular files, executables and symlinks keep their modes.
   */
  importTar(repository: string, archive: Readable, meta: SnapshotMeta): Promise<SnapshotCommit>;
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
  /** Keeps a commit reachable (a ref) until `expiresAt`; `prune` drops expired ones. */
  retain(repository: string, sha: string, expiresAt: number): Promise<void>;
  prune(now: number): Promise<number>;
}
