import { InputError } from '../../core/kernel/index.js';
import type { GitObject } from './object-reader.js';

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

/** Reads one object of the repository by name (see object-reader.ts). */
export type ReadObject = (name: string) => Promise<GitObject | undefined>;

/** The commit's tree id, or undefined when `sha` names no commit of the repository. */
export async function commitTree(read: ReadObject, sha: string): Promise<string | undefined> {
  const commit = await read(`${sha}^{commit}`);
  if (commit?.type !== 'commit') return undefined;
  return /^tree ([0-9a-f]+)\n/.exec(commit.content.toString('latin1'))?.[1];
}

/**
 * The UTF-8 text of the regular file at `path` (already normalised) in the tree `tree`, or
 * undefined when the tree has no file there. Walks the trees one segment at a time and looks
 * at each entry's mode, as `ls-tree` would: every step but the last must be a directory
 * (40000), and the last a regular file (a symlink or submodule is "no file"). Only object ids
 * go to git, so no path is ever parsed as a revision or a pattern.
 */
export async function readTreeFile(read: ReadObject, tree: string, path: string): Promise<string | undefined> {
  const segments = path.split('/');
  let current = tree;
  for (const [index, segment] of segments.entries()) {
    const object = await read(current);
    if (object?.type !== 'tree') return undefined;
    const entry = findEntry(object.content, Buffer.from(segment, 'utf8'), object.oid.length / 2);
    if (entry === undefined) return undefined;
    const last = index === segments.length - 1;
    if (!last && entry.mode !== '40000') return undefined;
    if (last && !FILE_MODES.has(entry.mode)) return undefined;
    current = entry.oid;
  }
  const blob = await read(current);
  return blob?.type === 'blob' ? blob.content.toString('utf8') : undefined;
}

interface TreeEntry {
  readonly mode: string;
  readonly oid: string;
}

/** The entry called `name` in a raw tree object (`<mode> <name>\0<binary id>` repeated). */
function findEntry(tree: Buffer, name: Buffer, idBytes: number): TreeEntry | undefined {
  let at = 0;
  while (at < tree.length) {
    const space = tree.indexOf(0x20, at);
    const nul = tree.indexOf(0, space + 1);
    if (space < 0 || nul < 0 || nul + 1 + idBytes > tree.length) return undefined;
    if (nul - space - 1 === name.length && tree.compare(name, 0, name.length, space + 1, nul) === 0) {
      return { mode: tree.toString('latin1', at, space), oid: tree.toString('hex', nul + 1, nul + 1 + idBytes) };
    }
    at = nul + 1 + idBytes;
  }
  return undefined;
}
