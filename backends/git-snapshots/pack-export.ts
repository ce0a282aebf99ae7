import type { Readable } from 'node:stream';
import { gitOutputStream, gitText, type Git } from './git-process.js';
import { SNAPSHOT_REFS } from './retention-refs.js';

/**
 * The retained commits the repository holds that `sha` reaches (itself aside): the earlier
 * snapshots on its history, which a pack of `sha` may leave out (and be thin against).
 */
export async function retainedAncestors(git: Git, gitDir: string, sha: string): Promise<string[]> {
  const listed = await gitText(git, ['for-each-ref', `--merged=${sha}`, '--format=%(objectname)', SNAPSHOT_REFS], { gitDir });
  return [...new Set(listed === '' ? [] : listed.split('\n'))].filter((id) => id !== sha);
}

/** The retained commits that reach `sha` (itself aside), the nearest first (by commit date). */
export async function retainedDescendants(git: Git, gitDir: string, sha: string): Promise<string[]> {
  const listed = await gitText(git, ['for-each-ref', `--contains=${sha}`, '--sort=committerdate', '--format=%(objectname)', SNAPSHOT_REFS], { gitDir });
  return [...new Set(listed === '' ? [] : listed.split('\n'))].filter((id) => id !== sha);
}

/** Those of `commits` none of the others reaches (`git merge-base --independent`). */
export async function independent(git: Git, gitDir: string, commits: readonly string[]): Promise<string[]> {
  if (commits.length <= 1) return [...commits];
  const text = await gitText(git, ['merge-base', '--independent', ...commits], { gitDir });
  return text === '' ? [] : text.split('\n');
}

/**
 * `git pack-objects` of what `sha` and the tag objects reach but `exclude` does not, thin against
 * `exclude` (a reader that holds those completes it with `index-pack --fix-thin`), as a stream.
 * The stream errors with git's stderr unless git exits 0, so a cut pack is never taken for a
 * whole one; destroying it stops git.
 */
export function packStream(git: Git, gitDir: string, sha: string, tagObjects: readonly string[], exclude: readonly string[]): Readable {
  const revisions = `${[sha, ...tagObjects, ...exclude.map((id) => `^${id}`)].join('\n')}\n`;
  return gitOutputStream(git, ['pack-objects', '--revs', '--thin', '--stdout', '--quiet', '--delta-base-offset'], gitDir, revisions);
}
