import { resolve } from 'node:path';
import { workTreeRoot } from './local-git.js';
import { readWorkingTreeState } from './working-tree-state.js';

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
  const { head, branch, dirty } = await readWorkingTreeState(root);
  return { root, ...(head === undefined ? {} : { head }), ...(branch === undefined ? {} : { branch }), dirty };
}
