import { InputError } from '../../core/kernel/index.js';

const SEGMENT = /^[A-Za-z0-9._-]+$/;
/** Most filesystems cap a name at 255 bytes; keys are ASCII, so bytes = characters. */
const MAX_SEGMENT_LENGTH = 255;
const MAX_KEY_LENGTH = 1024;

/** True for a name a blob file (or directory) may have; temp files never match. */
export function isKeySegment(segment: string): boolean {
  return SEGMENT.test(segment) && segment !== '.' && segment !== '..' && segment.length <= MAX_SEGMENT_LENGTH;
}

/**
 * Keys are `/`-separated segments of `[A-Za-z0-9._-]` (blob-store.ts). `.` and `..` segments are
 * refused as well as empty ones, so a key can never name a path outside the blob root or alias
 * another key.
 */
export function assertBlobKey(key: string): string {
  if (typeof key !== 'string' || key.length === 0 || key.length > MAX_KEY_LENGTH || !key.split('/').every(isKeySegment)) {
    throw new InputError(
      `blob key ${JSON.stringify(key)} is not valid: use /-separated segments of A-Z a-z 0-9 . _ - (no empty, "." or ".." segments, at most ${MAX_KEY_LENGTH} characters)`,
      { code: 'invalid_blob_key' },
    );
  }
  return key;
}

/** A list prefix: empty, whole segments ending in `/`, or whole segments and the start of one. */
export function assertBlobPrefix(prefix: string): string {
  if (prefix === '') return prefix;
  const segments = prefix.split('/');
  const last = segments.pop() ?? '';
  const validLast = last === '' || (SEGMENT.test(last) && last.length <= MAX_SEGMENT_LENGTH);
  if (prefix.length > MAX_KEY_LENGTH || !segments.every(isKeySegment) || !validLast) {
    throw new InputError(`blob prefix ${JSON.stringify(prefix)} is not valid: use the start of a blob key`, {
      code: 'invalid_blob_key',
    });
  }
  return prefix;
}
