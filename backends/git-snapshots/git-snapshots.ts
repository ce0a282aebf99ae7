import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { BackendContext } from '../../core/kernel/index.js';
import type { SnapshotStore } from '../../core/ports/index.js';
import { createGitSnapshotStore } from './git-snapshot-store.js';

export const SNAPSHOT_DIRECTORY = 'snapshots';

/** Snapshot repositories under `<dataDir>/snapshots`. */
export async function createGitSnapshots(context: BackendContext): Promise<SnapshotStore> {
  const root = join(context.dataDir, SNAPSHOT_DIRECTORY);
  await mkdir(root, { recursive: true });
  return createGitSnapshotStore({ root, logger: context.logger, clock: context.clock });
}

/**
 * The backend object for the kernel's catalog, shaped like the other backend kinds. The kernel
 * has no `snapshots` kind yet (backend-module.ts, catalog.ts); the issue that wires `svc run`
 * adds it and can take this object as it is.
 */
export const gitSnapshots = {
  kind: 'snapshots',
  id: 'git',
  create: createGitSnapshots,
} as const;
