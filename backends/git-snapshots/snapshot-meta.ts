import { InputError } from '../../core/kernel/index.js';
import type { SnapshotMeta } from '../../core/ports/index.js';
import { assertObjectId } from './repository-names.js';

export interface CheckedMeta {
  readonly authorName: string;
  readonly authorEmail: string;
  readonly seconds: number;
  /** Ends with one newline, as `git commit` leaves it. */
  readonly message: string;
  readonly parent?: string;
  /** Whole epoch milliseconds. */
  readonly retainUntil?: number;
  readonly maxUnpackedBytes?: number;
}

/**
 * The meta of a snapshot commit, checked before any git runs: identity fields go into a line of
 * git's own format, so what would break that line is refused; the time is whole seconds in UTC,
 * so the same meta always gives the same commit.
 */
export function checkMeta(meta: SnapshotMeta): CheckedMeta {
  checkIdentityField('authorName', meta.authorName);
  checkIdentityField('authorEmail', meta.authorEmail);
  if (meta.message.includes('\0')) throw invalid('message', 'snapshot message may not contain NUL');
  if (!Number.isFinite(meta.timestamp) || meta.timestamp < 0) {
    throw invalid('timestamp', `snapshot timestamp ${meta.timestamp} is not epoch milliseconds`);
  }
  const message = `${meta.message.replace(/\n+$/, '')}\n`;
  const checked = {
    authorName: meta.authorName,
    authorEmail: meta.authorEmail,
    seconds: Math.floor(meta.timestamp / 1000),
    message,
    ...(meta.retainUntil === undefined ? {} : { retainUntil: checkExpiry(meta.retainUntil) }),
    ...(meta.maxUnpackedBytes === undefined ? {} : { maxUnpackedBytes: meta.maxUnpackedBytes }),
  };
  return meta.parent === undefined ? checked : { ...checked, parent: assertObjectId(meta.parent, 'parent') };
}

/** A retention expiry in epoch milliseconds, rounded up to a whole millisecond (it names a ref). */
export function checkExpiry(expiresAt: number): number {
  if (!Number.isFinite(expiresAt) || expiresAt < 0 || expiresAt > Number.MAX_SAFE_INTEGER) {
    throw new InputError(`retention expiry ${expiresAt} is not epoch milliseconds`, { code: 'invalid_expiry' });
  }
  return Math.ceil(expiresAt);
}

function checkIdentityField(field: string, value: string): void {
  if (/[<>\n\r\0]/.test(value)) throw invalid(field, `snapshot ${field} "${value}" may not contain "<", ">", a newline or NUL`);
}

function invalid(field: string, message: string): InputError {
  return new InputError(message, { code: 'invalid_snapshot_meta', details: { field } });
}
