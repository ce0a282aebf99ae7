import { randomUUID } from 'node:crypto';
import { mkdir, rename, rm, stat } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { runGit, type Git } from './git-process.js';

/**
 * Settings of every snapshot repository: no hooks ever run, no automatic gc (the store's prune
 * owns gc, and a gc during an import would delete the import's temporary pack), no reflogs
 * (they would keep pruned snapshots reachable).
 */
const REPOSITORY_CONFIG: ReadonlyArray<readonly [string, string]> = [
  ['core.hooksPath', '/dev/null'],
  ['gc.auto', '0'],
  ['core.logAllRefUpdates', 'false'],
];

export async function repositoryExists(gitDir: string): Promise<boolean> {
  try {
    return (await stat(join(gitDir, 'HEAD'))).isFile();
  } catch {
    return false;
  }
}

/**
 * Creates the bare repository on first use. It is made beside its final place (a `~` name no
 * repository can have) and renamed in, so a concurrent first use, in this process or another,
 * sees a whole repository or none, and the loser of the race drops its copy.
 */
export async function ensureRepository(git: Git, gitDir: string): Promise<void> {
  if (await repositoryExists(gitDir)) return;
  await mkdir(dirname(gitDir), { recursive: true });
  const temp = `${gitDir}~${randomUUID()}`;
  try {
    await runGit(git, ['-c', 'init.defaultBranch=main', 'init', '--bare', '--quiet', '--template=', temp]);
    for (const [key, value] of REPOSITORY_CONFIG) await runGit(git, ['config', key, value], { gitDir: temp });
    await rename(temp, gitDir);
  } catch (error) {
    await rm(temp, { recursive: true, force: true });
    const code = (error as NodeJS.ErrnoException).code;
    if ((code === 'ENOTEMPTY' || code === 'EEXIST') && (await repositoryExists(gitDir))) return;
    throw error;
  }
}
