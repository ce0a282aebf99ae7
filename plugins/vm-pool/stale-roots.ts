import { readdir, rm } from 'node:fs/promises';
import { join } from 'node:path';

/** Guest roots a previous server left behind (killed before it could clean up): removed at start. */
export async function removeStaleGuestRoots(rootDir: string): Promise<number> {
  let names: string[];
  try {
    names = await readdir(rootDir);
  } catch {
    return 0;
  }
  const stale = names.filter((name) => name.startsWith('svc-pool-'));
  await Promise.all(stale.map((name) => rm(join(rootDir, name), { recursive: true, force: true, maxRetries: 3 })));
  return stale.length;
}
