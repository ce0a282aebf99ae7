import { resolve } from 'node:path';
import { headCommit, localGit, localGitText, workTreeRoot } from './local-git.js';

export interface WorkingTreeDescription {
  /** The work tree's top directory; outside git, `dir` itself (absolute). */
  readonly root: string;
  /** The commit HEAD names; absent outside git and before the first commit. */
  readonly head?: string;
  /** The branch HEAD is on (also an unborn one); absent when detached and outside git. */
  readonly branch?: string;
  /**
   * Whether the snapshot differs from `head` as `git status` sees it (changed, staged or
   * untracked-but-not-ignored files). Always true outside git: no commit describes the files.
   */
  readonly dirty: boolean;
}

/** Where a snapshot of `dir` comes from, as git tells it. */
export async function describeWorkingTree(dir: string): Promise<WorkingTreeDescription> {
  const absolute = resolve(dir);
  const root = await workTreeRoot(absolute);
  if (root === undefined) return { root: absolute, dirty: true };
  const [headSha, branch, status] = await Promise.all([
    headCommit(root),
    localGit(root, ['symbolic-ref', '-q', '--short', 'HEAD'], [1]),
    localGitText(root, ['status', '--porcelain', '-z']),
  ]);
  const text = (result: { code: number; stdout: Buffer }): string | undefined =>
    result.code === 0 ? result.stdout.toString('utf8').trim() || undefined : undefined;
  const branchName = text(branch);
  return {
    root,
    ...(headSha === undefined ? {} : { head: headSha }),
    ...(branchName === undefined ? {} : { branch: branchName }),
    dirty: status !== '',
  };
}
