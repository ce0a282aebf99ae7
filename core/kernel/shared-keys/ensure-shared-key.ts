import type { SharedKeys } from '../../ports/index.js';

/**
 * The entry `name`, created with `make()` when there is none. Of two processes racing, both
 * return the value that was written first.
 */
export async function ensureSharedKey(keys: SharedKeys, name: string, make: () => string | Promise<string>): Promise<string> {
  const existing = await keys.get(name);
  if (existing !== undefined) return existing;
  const kept = await keys.compareAndSet(name, undefined, await make());
  if (kept === undefined) throw new Error(`the shared key '${name}' was deleted while it was being created`);
  return kept;
}
