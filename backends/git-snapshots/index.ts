export { createGitSnapshots, gitSnapshots, SNAPSHOT_DIRECTORY } from './git-snapshots.js';
export { createGitSnapshotStore, type GitSnapshotStoreOptions } from './git-snapshot-store.js';
export { GitCommandError } from './git-process.js';
export { createSharedSnapshotStore, type SharedSnapshotStoreOptions } from './shared-snapshot-store.js';
export { KeyedLocks } from './keyed-locks.js';
export { cleanGit } from './git-process.js';
