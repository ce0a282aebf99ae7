export { createGitSnapshots, gitSnapshots, SNAPSHOT_DIRECTORY } from './git-snapshots.js';
export { createGitSnapshotStore, type GitSnapshotStoreOptions } from './git-snapshot-store.js';
export { GitCommandError } from './git-process.js';
