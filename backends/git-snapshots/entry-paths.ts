import { InputError } from '../../core/kernel/index.js';

/**
 * Path rules for archive entries. A snapshot becomes a tree a runner checks out, so a path that
 * could land outside the checkout, or inside its `.git`, is refused, not cleaned up: the client
 * never sends one, so seeing one means a broken or hostile archive.
 */
export function refuseEntry(entry: string, reason: string): InputError {
  return new InputError(`snapshot archive entry "${entry}" is refused: ${reason}`, {
    code: 'snapshot_entry_refused',
    details: { entry, reason },
  });
}

/**
 * The entry's path inside the tree: `./` prefixes, `.` segments, doubled and trailing slashes
 * dropped. Returns '' for the root directory itself (`./`), which only a directory may be.
 */
export function normalizeEntryPath(name: string): string {
  if (name.startsWith('/') || /^[A-Za-z]:[\\/]/.test(name)) throw refuseEntry(name, 'absolute paths are not allowed');
  if (name.includes('\0')) throw refuseEntry(name, 'the path contains a NUL byte');
  const segments: string[] = [];
  for (const segment of name.split('/')) {
    if (segment === '' || segment === '.') continue;
    if (segment === '..') throw refuseEntry(name, 'a ".." segment would leave the tree');
    if (isGitDirectoryName(segment)) throw refuseEntry(name, 'a ".git" path segment would write into a repository');
    segments.push(segment);
  }
  return segments.join('/');
}

/**
 * `.git` in any case, with the trailing dots or spaces Windows drops, or its 8.3 short name:
 * the names git itself will not check out (verify_path, core.protectNTFS).
 */
function isGitDirectoryName(segment: string): boolean {
  const folded = segment.toLowerCase();
  return folded.replace(/[. ]+$/, '') === '.git' || folded === 'git~1';
}

/**
 * The files seen so far, to refuse a path that is given twice or is both a file and a
 * directory: git would keep one of them silently, and which one must not depend on the order.
 */
export class TreePaths {
  readonly #files = new Set<string>();
  readonly #directories = new Set<string>();

  addFile(path: string, entry: string): void {
    if (path === '') throw refuseEntry(entry, 'a file cannot be the root directory');
    if (this.#files.has(path)) throw refuseEntry(entry, `"${path}" appears twice in the archive`);
    if (this.#directories.has(path)) throw refuseEntry(entry, `"${path}" is also a directory in the archive`);
    this.#addParents(path, entry);
    this.#files.add(path);
  }

  addDirectory(path: string, entry: string): void {
    if (path === '') return;
    if (this.#files.has(path)) throw refuseEntry(entry, `"${path}" is also a file in the archive`);
    this.#addParents(path, entry);
    this.#directories.add(path);
  }

  #addParents(path: string, entry: string): void {
    for (let slash = path.indexOf('/'); slash !== -1; slash = path.indexOf('/', slash + 1)) {
      const parent = path.slice(0, slash);
      if (this.#files.has(parent)) throw refuseEntry(entry, `"${parent}" is a file in the archive, not a directory`);
      this.#directories.add(parent);
    }
  }
}
