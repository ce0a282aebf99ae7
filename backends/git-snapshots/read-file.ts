import { InputError } from '../../core/kernel/index.js';
import { runGit, type Git } from './git-process.js';

/** Modes of the tree entries that are files; a symlink (120000) or submodule (160000) is not. */
const FILE_MODES = new Set(['100644', '100755']);

/**
 * A path inside a commit's tree as callers give it (`.github/workflows/ci.yml`, also with a
 * `./` prefix or doubled slashes), normalised to git's spelling. An absolute path or a `..`
 * segment is refused rather than resolved: such a path names nothing in a tree, and a caller
 * sending one is confused or probing.
 */
export function treePath(path: string): string {
  const refuse = (why: string): InputError =>
    new InputError(`path "${path}" ${why}; give a path inside the repository, e.g. .github/workflows/ci.yml`, {
      code: 'invalid_path',
      details: { path },
    });
  if (path.startsWith('/') || /^[A-Za-z]:[\\/]/.test(path)) throw refuse('is absolute');
  if (path.includes('\0')) throw refuse('contains a NUL byte');
  const segments: string[] = [];
  for (const segment of path.split('/')) {
    if (segment === '' || segment === '.') continue;
    if (segment === '..') throw refuse('has a ".." segment');
    segments.push(segment);
  }
  if (segments.length === 0) throw refuse('names no file');
  return segments.join('/');
}

/**
 * The UTF-8 text of the regular file at `path` (already normalised) in commit `sha`, or
 * undefined when the tree has no file there. `ls-tree` with literal pathspecs finds the entry
 * and its mode without a glob ever matching, then `cat-file` reads the blob.
 */
export async function readCommitFile(git: Git, gitDir: string, sha: string, path: string): Promise<string | undefined> {
  const listing = await runGit(git, ['--literal-pathspecs', 'ls-tree', '-z', sha, '--', path], { gitDir });
  for (const line of listing.stdout.toString('utf8').split('\0')) {
    const match = /^(\d+) (\w+) ([0-9a-f]+)\t(.*)$/s.exec(line);
    if (match === null || match[4] !== path) continue;
    const [, mode = '', type = '', object = ''] = match;
    if (type !== 'blob' || !FILE_MODES.has(mode)) return undefined;
    return (await runGit(git, ['cat-file', 'blob', object], { gitDir })).stdout.toString('utf8');
  }
  return undefined;
}
