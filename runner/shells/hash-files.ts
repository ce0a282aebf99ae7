/**
 * The `hashFiles(...)` expression function as the runner computes it: the patterns are globbed
 * from the workspace (`@actions/glob` rules, glob-search.ts), every matched regular file inside
 * the workspace is hashed with SHA-256 in the order found, and the result is the SHA-256 of those
 * digests concatenated, in hex; '' when no file matched. Symbolic links are followed only when the
 * first argument is `--follow-symbolic-links`. Synchronous, because expressions are.
 */
import { Buffer } from 'node:buffer';
import { createHash, type Hash } from 'node:crypto';
import { closeSync, openSync, readSync, realpathSync, statSync } from 'node:fs';
import { homedir } from 'node:os';
import { sep } from 'node:path';
import { parsePatterns, globSync } from './glob-search.js';

export const FOLLOW_SYMBOLIC_LINKS_OPTION = '--follow-symbolic-links';

export class HashFilesError extends Error {
  override readonly name = 'HashFilesError';
}

function hashFileInto(path: string, result: Hash): void {
  const hash = createHash('sha256');
  const buffer = Buffer.allocUnsafe(64 * 1024);
  const fd = openSync(path, 'r');
  try {
    for (;;) {
      const read = readSync(fd, buffer, 0, buffer.length, null);
      if (read === 0) break;
      hash.update(buffer.subarray(0, read));
    }
  } finally {
    closeSync(fd);
  }
  result.update(hash.digest());
}

/** The runner's failure text; the patterns are quoted as an expression string. */
function failure(patterns: readonly string[], workspace: string, cause: unknown): HashFilesError {
  const quoted = patterns.join(', ').replaceAll("'", "''");
  return new HashFilesError(`hashFiles('${quoted}') failed. Fail to hash files under directory '${workspace}'`, { cause });
}

export function hashFilesSync(workspace: string, patterns: readonly string[]): string {
  let follow = false;
  let list = [...patterns];
  const first = list[0];
  if (first?.startsWith('--')) {
    if (first.toLowerCase() !== FOLLOW_SYMBOLIC_LINKS_OPTION) {
      // .NET's ArgumentOutOfRangeException(paramName) text, the runner's message passed as the parameter name.
      throw new HashFilesError(
        `Specified argument was out of the range of valid values. (Parameter 'Invalid glob option ${first}, avaliable option: '${FOLLOW_SYMBOLIC_LINKS_OPTION}'.')`,
      );
    }
    follow = true;
    list = list.slice(1);
  }
  try {
    // hashFiles runs with the workspace as its working directory, which the OS reports resolved.
    const cwd = realpathSync.native(workspace);
    const context = { cwd, homedir: homedir() };
    const result = createHash('sha256');
    let count = 0;
    for (const file of globSync(parsePatterns(list.join('\n'), context), context, { followSymbolicLinks: follow })) {
      if (!file.startsWith(`${cwd}${sep}`)) continue;
      if (statSync(file).isDirectory()) continue;
      hashFileInto(file, result);
      count++;
    }
    return count > 0 ? result.digest('hex') : '';
  } catch (error) {
    throw failure(list, workspace, error);
  }
}
