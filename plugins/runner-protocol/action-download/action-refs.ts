/**
 * Remote action references as the runner names them: `owner/repo[/sub/dir]@ref` in `uses:`,
 * `{nameWithOwner, ref, path}` in an `actiondownloadinfo` batch, `owner/repo@ref` as the key of
 * the answer (§5.5). Names are compared case-insensitively (the forge does); refs exactly.
 */
import { splitRepositoryName } from '../../../core/ports/index.js';

export interface RemoteAction {
  /** `owner/repo`. */
  readonly nameWithOwner: string;
  readonly ref: string;
  /** Sub-directory of the action inside the repository, `''` for the root. */
  readonly path: string;
}

/** `owner/repo@ref` (the key the runner looks its answer up by). */
export function actionKey(action: Pick<RemoteAction, 'nameWithOwner' | 'ref'>): string {
  return `${action.nameWithOwner}@${action.ref}`;
}

/** The key two references are the same download by: the name in lower case, the ref as written. */
export function admissionKey(action: Pick<RemoteAction, 'nameWithOwner' | 'ref'>): string {
  return `${action.nameWithOwner.toLowerCase()}@${action.ref}`;
}

/**
 * A `uses:` value as a remote action, or undefined for anything else (`./local`, `docker://`,
 * `$/path`, expressions, malformed values: none of them is downloaded through this route).
 */
export function parseRemoteUses(uses: string): RemoteAction | undefined {
  const value = uses.trim();
  if (value.startsWith('.') || value.startsWith('$') || value.toLowerCase().startsWith('docker://') || value.includes('${{')) return undefined;
  const at = value.lastIndexOf('@');
  if (at <= 0 || at === value.length - 1) return undefined;
  const [owner, repo, ...rest] = value.slice(0, at).split('/');
  if (owner === undefined || repo === undefined) return undefined;
  const nameWithOwner = `${owner}/${repo}`;
  if (splitRepositoryName(nameWithOwner) === undefined) return undefined;
  return { nameWithOwner, ref: value.slice(at + 1), path: rest.join('/') };
}
