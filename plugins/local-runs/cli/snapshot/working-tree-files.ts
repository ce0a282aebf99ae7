import type { Dirent, Stats } from 'node:fs';
import { lstat, readdir, readlink } from 'node:fs/promises';
import { join } from 'node:path';
import { inOrder } from './in-order.js';
import { localGit } from './local-git.js';

/** One file of the snapshot, by its path from the root with `/` separators. */
export type WorkingTreeFile =
  | {
      readonly kind: 'file';
      readonly path: string;
      readonly executable: boolean;
      /** As listed; the archive has the size the file has when it is read. */
      readonly size: number;
    }
  | { readonly kind: 'symlink'; readonly path: string; readonly target: string };

export interface WorkingTreeListing {
  /** Sorted by path (byte order), so the same tree packs to the same archive. */
  readonly files: readonly WorkingTreeFile[];
  /** Submodules (and nested repositories) found and left out. */
  readonly submodules: readonly string[];
  readonly warnings: readonly string[];
}

const GITLINK_MODE = '160000';
/** Paths looked at (lstat) at once while listing. */
const LIST_WINDOW = 32;

/**
 * The files of a git work tree as `git ls-files` sees them: tracked ones as they are on disk now
 * (deleted ones skipped), plus untracked ones that are not ignored. Submodules are left out with
 * a warning: their commits live in other repositories the server cannot see, and sending their
 * files as plain files would change what the workflow checks out.
 */
export async function listGitWorkTree(root: string): Promise<WorkingTreeListing> {
  const [staged, untracked] = await Promise.all([
    localGit(root, ['ls-files', '-z', '--cached', '--stage']),
    localGit(root, ['ls-files', '-z', '--others', '--exclude-standard']),
  ]);
  const candidates = new Set<string>();
  const submodules: string[] = [];
  const warnings: string[] = [];
  // `<mode> <object> <stage>\t<path>`; a conflicted path comes once per stage.
  for (const record of split(staged.stdout)) {
    const tab = record.indexOf('\t');
    const path = record.slice(tab + 1);
    if (record.startsWith(`${GITLINK_MODE} `)) {
      if (!submodules.includes(path)) {
        submodules.push(path);
        warnings.push(`submodule ${path} is not part of the snapshot (submodules are skipped)`);
      }
    } else candidates.add(path);
  }
  for (const path of split(untracked.stdout)) {
    if (path.endsWith('/')) {
      // git lists an untracked directory holding its own repository as one entry.
      const nested = path.slice(0, -1);
      submodules.push(nested);
      warnings.push(`nested repository ${nested} is not part of the snapshot (it has its own .git)`);
    } else candidates.add(path);
  }
  const files: WorkingTreeFile[] = [];
  const symlinkedDirectories = new Map<string, Promise<boolean>>();
  const look = async (path: string): Promise<Described> =>
    // Like git, a tracked path below what is now a symlink counts as deleted: reading through
    // the link would pack files from outside the work tree.
    (await underSymlink(root, path, symlinkedDirectories)) ? {} : describeFile(root, path);
  for await (const { file, warning } of inOrder([...candidates], LIST_WINDOW, look)) {
    if (file !== undefined) files.push(file);
    if (warning !== undefined) warnings.push(warning);
  }
  return { files: sortByPath(files), submodules: submodules.sort(), warnings };
}

/** Every file under `root` except `.git` (in any case, anywhere), symlinks kept as symlinks. */
export async function listDirectory(root: string): Promise<WorkingTreeListing> {
  const files: WorkingTreeFile[] = [];
  const warnings: string[] = [];
  async function walk(relative: string): Promise<void> {
    const entries: Dirent[] = await readdir(relative === '' ? root : join(root, relative), { withFileTypes: true });
    for (const entry of entries) {
      if (entry.name.toLowerCase() === '.git') continue;
      const path = relative === '' ? entry.name : `${relative}/${entry.name}`;
      if (entry.isDirectory()) await walk(path);
      else {
        const { file, warning } = await describeFile(root, path);
        if (file !== undefined) files.push(file);
        if (warning !== undefined) warnings.push(warning);
      }
    }
  }
  await walk('');
  return { files: sortByPath(files), submodules: [], warnings };
}

interface Described {
  readonly file?: WorkingTreeFile;
  readonly warning?: string;
}

/** What is at `path` now: a file, a symlink, or nothing to pack (gone, a directory, a socket). */
async function describeFile(root: string, path: string): Promise<Described> {
  let stats: Stats;
  try {
    stats = await lstat(join(root, path));
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return {}; // deleted since the last commit
    throw error;
  }
  // Git's own rule: executable when the owner may execute it.
  if (stats.isFile()) return { file: { kind: 'file', path, executable: (stats.mode & 0o100) !== 0, size: stats.size } };
  if (stats.isSymbolicLink()) return { file: { kind: 'symlink', path, target: await readlink(join(root, path)) } };
  // A tracked file now replaced by a directory: its files come as untracked ones.
  return stats.isDirectory() ? {} : { warning: `${path} is not a regular file or symlink; skipped` };
}

function underSymlink(root: string, path: string, cache: Map<string, Promise<boolean>>): Promise<boolean> {
  const slash = path.lastIndexOf('/');
  if (slash === -1) return Promise.resolve(false);
  const parent = path.slice(0, slash);
  let answer = cache.get(parent);
  if (answer === undefined) {
    answer = underSymlink(root, parent, cache).then(
      async (above) => above || (await lstat(join(root, parent)).then((stats) => stats.isSymbolicLink(), () => false)),
    );
    cache.set(parent, answer);
  }
  return answer;
}

function split(output: Buffer): string[] {
  return output
    .toString('utf8')
    .split('\0')
    .filter((part) => part !== '');
}

function sortByPath(files: WorkingTreeFile[]): WorkingTreeFile[] {
  return files.sort((a, b) => Buffer.compare(Buffer.from(a.path), Buffer.from(b.path)));
}
