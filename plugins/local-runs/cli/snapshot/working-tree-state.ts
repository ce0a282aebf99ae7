import { localGit } from './local-git.js';

export interface WorkingTreeState {
  /** The commit HEAD names; absent before the first commit. */
  readonly head?: string;
  /** The branch HEAD is on (also an unborn one); absent when detached. */
  readonly branch?: string;
  /**
   * Whether the working tree differs from HEAD as the run would see it: a changed, staged,
   * deleted or conflicted file, an untracked file that is not ignored, a submodule moved to
   * another commit. Changes inside a submodule do not count (its gitlink stays what it was).
   */
  readonly dirty: boolean;
  /** Untracked directories holding their own repository (left out of the run's tree). */
  readonly nested: readonly string[];
}

/**
 * One `git status` tells where the work tree at `root` stands: HEAD, the branch, and whether
 * anything differs (porcelain v2 with `--branch` has all three). Untracked files are listed one
 * by one (`-uall`), so a directory of untracked files is not mistaken for a nested repository,
 * which git lists as `dir/`; the user's `status.showUntrackedFiles` does not change the answer.
 */
export async function readWorkingTreeState(root: string): Promise<WorkingTreeState> {
  const { stdout } = await localGit(root, ['status', '--porcelain=v2', '--branch', '-z', '--untracked-files=all', '--ignore-submodules=dirty']);
  const records = stdout.toString('utf8').split('\0');
  let head: string | undefined;
  let branch: string | undefined;
  let dirty = false;
  const nested: string[] = [];
  for (let index = 0; index < records.length; index += 1) {
    const record = records[index] ?? '';
    if (record.startsWith('# branch.oid ')) {
      const oid = record.slice('# branch.oid '.length);
      if (oid !== '(initial)') head = oid;
    } else if (record.startsWith('# branch.head ')) {
      const name = record.slice('# branch.head '.length);
      if (name !== '(detached)') branch = name;
    } else if (record.startsWith('? ')) {
      const path = record.slice(2);
      if (path.endsWith('/')) nested.push(path.slice(0, -1));
      else dirty = true;
    } else if (/^[12u] /.test(record)) {
      dirty = true;
      // A rename or copy has its original path in the next record.
      if (record.startsWith('2 ')) index += 1;
    }
  }
  return { ...(head === undefined ? {} : { head }), ...(branch === undefined ? {} : { branch }), dirty, nested };
}
