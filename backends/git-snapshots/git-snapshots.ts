import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { BackendContext, SnapshotBackend } from '../../core/kernel/index.js';
import type { SnapshotStore } from '../../core/ports/index.js';
import { createGitSnapshotStore } from './git-snapshot-store.js';

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

/** Snapshot repositories under `<dataDir>/snapshots`. */
export async function createGitSnapshots(context: BackendContext): Promise<SnapshotStore> {
  const root = join(context.dataDir, SNAPSHOT_DIRECTORY);
  await mkdir(root, { recursive: true });
  return createGitSnapshotStore({ root, logger: context.logger, clock: context.clock, importRetentionMs: IMPORT_GRACE_MS, retentionStepMs: RETENTION_STEP_MS });
}

/** The `git` snapshot backend of the kernel's catalog (`[backends] snapshots = "git"`). */
export const gitSnapshots: SnapshotBackend = {
  kind: 'snapshots',
  id: 'git',
  create: createGitSnapshots,
};
