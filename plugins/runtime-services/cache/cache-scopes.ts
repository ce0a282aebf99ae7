import { ForbiddenError, InputError } from '../../../core/kernel/index.js';
import type { CacheMode, RuntimeJobContext } from '../../../core/ports/index.js';

/** The toolkit's own limits (cache.ts `checkKey`, `restoreCache`). */
export const MAX_KEY_LENGTH = 512;
export const MAX_KEYS = 10;
const MAX_VERSION_LENGTH = 512;

/**
 * Prefixes the toolkit (`@actions/cache` 6) recognises in a denial: it then warns and goes on
 * instead of failing the step.
 */
export const CACHE_READ_DENIED = 'cache read denied:';
export const CACHE_WRITE_DENIED = 'cache write denied:';

/**
 * The scopes a job may restore from, in search order (GitHub's "Restrictions for accessing a
 * cache"): the ref the run is for, then a pull request's base branch, then the default branch.
 * Never a sibling or child branch's: a run of `feature-b` does not see `feature-a`'s entries.
 */
export function readableScopes(context: RuntimeJobContext): string[] {
  const scopes = [context.ref];
  for (const scope of [context.baseRef, context.defaultBranchRef]) {
    if (scope !== undefined && !scopes.includes(scope)) scopes.push(scope);
  }
  return scopes;
}

/** A job writes to its own ref's scope only. */
export function writableScope(context: RuntimeJobContext): string {
  return context.ref;
}

export function canRead(mode: CacheMode): boolean {
  return mode === 'read' || mode === 'write';
}

export function canWrite(mode: CacheMode): boolean {
  return mode === 'write' || mode === 'write-only';
}

export function requireRead(context: RuntimeJobContext): void {
  if (!canRead(context.cacheMode)) {
    throw new ForbiddenError(`${CACHE_READ_DENIED} this job's cache mode is '${context.cacheMode}'`, { code: 'cache_read_denied' });
  }
}

export function requireWrite(context: RuntimeJobContext): void {
  if (!canWrite(context.cacheMode)) {
    throw new ForbiddenError(`${CACHE_WRITE_DENIED} this job's cache mode is '${context.cacheMode}' (the '${context.eventName}' event may only read caches)`, {
      code: 'cache_write_denied',
    });
  }
}

/** A key as the toolkit allows it: 1-512 characters, no commas (v1 joins keys with commas). */
export function checkKey(key: string, what = 'key'): string {
  if (key.length === 0 || key.length > MAX_KEY_LENGTH || key.includes(',')) {
    throw new InputError(`the cache ${what} must be 1 to ${MAX_KEY_LENGTH} characters without commas, got '${key.slice(0, 80)}'`, { code: 'invalid_cache_key' });
  }
  return key;
}

export function checkKeys(keys: readonly string[]): readonly string[] {
  if (keys.length === 0 || keys.length > MAX_KEYS) throw new InputError(`give 1 to ${MAX_KEYS} keys (the key and its restore keys), got ${keys.length}`, { code: 'invalid_cache_key' });
  keys.forEach((key, index) => checkKey(key, index === 0 ? 'key' : 'restore key'));
  return keys;
}

/** The version: the client's hash of paths and compression (a SHA-256 hex from the toolkit). */
export function checkVersion(version: string): string {
  if (version.length === 0 || version.length > MAX_VERSION_LENGTH || /[\s,]/.test(version)) {
    throw new InputError(`the cache version must be 1 to ${MAX_VERSION_LENGTH} characters without spaces or commas`, { code: 'invalid_cache_version' });
  }
  return version;
}
