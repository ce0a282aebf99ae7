import { join } from 'node:path';
import { InputError } from '../../core/kernel/index.js';

const NAME = /^[A-Za-z0-9_.-]+$/;
/** GitHub allows 39 characters for an owner and 100 for a repository; other forges a few more. */
const MAX_PART = 100;
const OBJECT_ID = /^(?:[0-9a-f]{40}|[0-9a-f]{64})$/;

/**
 * `owner/repo` → `<root>/<owner>/<repo>.git`. Each half is `[A-Za-z0-9_.-]+` and neither `.` nor
 * `..`, so the path cannot leave the root. Case is kept as given: `Owner/Repo` and
 * `owner/repo` are two directories on a case-sensitive filesystem.
 */
export function repositoryDirectory(root: string, repository: string): string {
  const parts = repository.split('/');
  const [owner, repo] = parts;
  if (parts.length !== 2 || owner === undefined || repo === undefined || !isName(owner) || !isName(repo)) {
    throw new InputError(
      `repository "${repository.length > 220 ? `${repository.slice(0, 200)}...` : repository}" is not owner/repo (each part 1 to ${MAX_PART} letters, digits, "_", "." or "-", and not "." or "..")`,
      { code: 'invalid_repository', details: { repository } },
    );
  }
  return join(root, owner, `${repo}.git`);
}

function isName(part: string): boolean {
  return part.length <= MAX_PART && NAME.test(part) && part !== '.' && part !== '..';
}

/** Object ids arrive from URLs and request bodies: full lower-case hex only (no revisions). */
export function assertObjectId(sha: string, what = 'commit'): string {
  if (!OBJECT_ID.test(sha)) {
    throw new InputError(`${what} "${sha}" is not a full object id (40 or 64 lower-case hex digits)`, {
      code: 'invalid_object_id',
      details: { sha },
    });
  }
  return sha;
}
