import { chmod, lstat, readdir, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Logger } from './logger.js';

/**
 * The file mode creation mask of `svc serve`: what it creates is owner-only from the start
 * (directories 0700, files 0600), the SQLite WAL and SHM files, blobs, snapshots and git's own
 * files included, without a chmod afterwards. The built-in pool's guests set 022 again for jobs.
 */
export const SERVER_UMASK = 0o077;

/**
 * Folders of the data dir whose modes belong to the guests (their runner roots, workspaces,
 * runtimes and tool cache): left as they are; the data dir itself keeps other users out of them.
 */
const GUEST_FOLDERS = new Set(['pool', 'runtimes', 'tool-cache', 'microvm-guests']);

/** Written once the whole data dir was checked: later starts check only the data dir itself. */
const CHECKED_MARKER = '.owner-only';

/**
 * A data dir from an older version may be 0755 with 0644 files (svc.db holds runner session keys
 * and job messages): made owner-only at start, with one log line saying how many entries changed.
 * The walk happens once (then a marker file says so; what svc creates later is owner-only by its
 * umask), or again when the data dir itself was opened up. Symbolic links are not followed.
 */
export async function tightenDataDir(dataDir: string, logger: Logger): Promise<number> {
  const marker = join(dataDir, CHECKED_MARKER);
  const walked = await stat(marker).then(() => true, () => false);
  if (walked && ((await stat(dataDir)).mode & 0o077) === 0) return 0;
  let changed = 0;
  const visit = async (path: string, top: boolean): Promise<void> => {
    const info = await lstat(path);
    if (info.isSymbolicLink()) return;
    if ((info.mode & 0o077) !== 0) {
      await chmod(path, info.mode & 0o700);
      changed += 1;
    }
    if (!info.isDirectory()) return;
    for (const name of await readdir(path)) {
      if (top && GUEST_FOLDERS.has(name)) continue;
      await visit(join(path, name), false);
    }
  };
  await visit(dataDir, true);
  await writeFile(marker, 'every file svc keeps here is owner-only\n', { mode: 0o600 });
  if (changed > 0) logger.warn({ dataDir, changed }, `data dir: ${changed} files and folders other users could read are now owner-only (0700 folders, 0600 files)`);
  return changed;
}
