import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { SnapshotBackend, SnapshotBackendContext } from '../../core/kernel/index.js';
import type { SnapshotStore } from '../../core/ports/index.js';
import { createGitSnapshotStore } from './git-snapshot-store.js';
import { cleanGit } from './git-process.js';
import { KeyedLocks } from './keyed-locks.js';
import { createSharedSnapshotStore } from './shared-snapshot-store.js';

export const SNAPSHOT_DIRECTORY = 'snapshots';

/**
 * How long an upload stays on its own before its caller's `retain` (the store's import grace).
 * Short on purpose: the grace only covers the moment between import and retain, and a longer
 * one would outlive the checkout retention the caller asks for (1,800 s by default).
 */
const IMPORT_GRACE_MS = 10 * 60 * 1000;

/**
 * Retention dates to the minute: `svc run`'s upload and its submission moments later then ask
 * for the same date, and the submission's retain costs no git process.
 */
const RETENTION_STEP_MS = 60 * 1000;

/**
 * Snapshot repositories under `<dataDir>/snapshots`; with a shared blob store (several nodes),
 * those are this node's cache of the commits kept in the blob store (shared-snapshot-store.ts).
 */
export async function createGitSnapshots(context: SnapshotBackendContext): Promise<SnapshotStore> {
  const root = join(context.dataDir, SNAPSHOT_DIRECTORY);
  await mkdir(root, { recursive: true });
  const locks = new KeyedLocks();
  const options = { root, logger: context.logger, clock: context.clock, importRetentionMs: IMPORT_GRACE_MS, retentionStepMs: RETENTION_STEP_MS };
  const local = createGitSnapshotStore({ ...options, locks });
  if (context.sharedBlobs === undefined) return local;
  return createSharedSnapshotStore({ ...options, local, blobs: context.sharedBlobs, git: cleanGit(root), locks });
}

/** The `git` snapshot backend of the kernel's catalog (`[backends] snapshots = "git"`). */
export const gitSnapshots: SnapshotBackend = {
  kind: 'snapshots',
  id: 'git',
  create: createGitSnapshots,
};
