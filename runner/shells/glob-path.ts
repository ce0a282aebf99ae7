/**
 * Path handling of `@actions/glob` (the library the runner's hashFiles uses), kept to its rules so
 * patterns root, split and compare exactly as there: separators normalised (`\` on Windows, with
 * UNC roots), trailing separators trimmed except at a root, and a path split into a root segment
 * followed by names.
 */
import { basename, dirname as nodeDirname, sep } from 'node:path';

export const IS_WINDOWS = process.platform === 'win32';

export function normalizeSeparators(p: string): string {
  if (IS_WINDOWS) {
    const slashes = p.replace(/\//g, '\\');
    const unc = /^\\\\+[^\\]/.test(slashes);
    return (unc ? '\\' : '') + slashes.replace(/\\\\+/g, '\\');
  }
  return p.replace(/\/\/+/g, '/');
}

export function safeTrimTrailingSeparator(p: string): string {
  if (!p) return '';
  const normalized = normalizeSeparators(p);
  if (!normalized.endsWith(sep) || normalized === sep) return normalized;
  if (IS_WINDOWS && /^[A-Z]:\\$/i.test(normalized)) return normalized;
  return normalized.slice(0, -1);
}

export function dirname(p: string): string {
  const trimmed = safeTrimTrailingSeparator(p);
  if (IS_WINDOWS && /^\\\\[^\\]+(\\[^\\]+)?$/.test(trimmed)) return trimmed;
  const result = nodeDirname(trimmed);
  return IS_WINDOWS && /^\\\\[^\\]+\\[^\\]+\\$/.test(result) ? safeTrimTrailingSeparator(result) : result;
}

export function hasAbsoluteRoot(p: string): boolean {
  const normalized = normalizeSeparators(p);
  return IS_WINDOWS ? normalized.startsWith('\\\\') || /^[A-Z]:\\/i.test(normalized) : normalized.startsWith('/');
}

export function hasRoot(p: string): boolean {
  const normalized = normalizeSeparators(p);
  return IS_WINDOWS ? normalized.startsWith('\\') || /^[A-Z]:/i.test(normalized) : normalized.startsWith('/');
}

/** Roots a relative path at `root` (Windows drive-relative forms resolve against `cwd`). */
export function ensureAbsoluteRoot(root: string, itemPath: string, cwd: string): string {
  if (hasAbsoluteRoot(itemPath)) return itemPath;
  if (IS_WINDOWS) {
    if (/^[A-Z]:[^\\/]|^[A-Z]:$/i.test(itemPath)) {
      const drive = itemPath[0] ?? '';
      if (drive.toUpperCase() === (cwd[0] ?? '').toUpperCase()) {
        if (itemPath.length === 2) return `${drive}:\\${cwd.slice(3)}`;
        return `${drive}:\\${cwd.slice(3)}${cwd.endsWith('\\') ? '' : '\\'}${itemPath.slice(2)}`;
      }
      return `${drive}:\\${itemPath.slice(2)}`;
    }
    if (/^\\$|^\\[^\\]/.test(normalizeSeparators(itemPath))) return `${cwd[0] ?? 'C'}:\\${itemPath.slice(1)}`;
  }
  const rooted = root.endsWith('/') || (IS_WINDOWS && root.endsWith('\\')) ? root : root + sep;
  return rooted + itemPath;
}

/** A path's segments: the root first when rooted (`/`, `C:\`, `\\server\share`), then each name. */
export function pathSegments(itemPath: string): string[] {
  const trimmed = safeTrimTrailingSeparator(itemPath);
  if (!hasRoot(trimmed)) return trimmed.split(sep);
  const segments: string[] = [];
  let remaining = trimmed;
  let parent = dirname(remaining);
  while (parent !== remaining) {
    segments.unshift(basename(remaining));
    remaining = parent;
    parent = dirname(remaining);
  }
  segments.unshift(remaining);
  return segments;
}

/** Joins segments back; no separator after a root that already ends in one (or a bare `C:`). */
export function joinSegments(segments: readonly string[]): string {
  let result = segments[0] ?? '';
  let skipSeparator = result.endsWith(sep) || (IS_WINDOWS && /^[A-Z]:$/i.test(result));
  for (const segment of segments.slice(1)) {
    if (skipSeparator) skipSeparator = false;
    else result += sep;
    result += segment;
  }
  return result;
}
