import type { CredentialStore, IdGenerator } from '../ports/index.js';
import type { Logger } from './logger.js';

export const SYSTEM_TOKEN_NAME = 'system-token';
export const BLOB_SIGNING_KEY_NAME = 'blob-signing-key';

/**
 * The native system token: SVC_SYSTEM_TOKEN when set, else the one kept in the credential store,
 * else a new one generated into the store (the CLI reads it from there).
 */
export async function resolveSystemToken(fromEnv: string | undefined, store: CredentialStore, ids: IdGenerator, logger: Logger): Promise<string> {
  if (fromEnv !== undefined) return fromEnv;
  const existing = await store.get(SYSTEM_TOKEN_NAME);
  if (existing !== undefined) return existing;
  const token = `svc_${ids.token(32)}`;
  await store.set(SYSTEM_TOKEN_NAME, token);
  if (store.persistent) {
    logger.info({ credentialStore: store.kind }, 'generated the system token into the credential store');
  } else {
    logger.warn('generated a system token in the memory credential store: nothing outside this process can read it; set SVC_SYSTEM_TOKEN to use the management API');
  }
  return token;
}

/** A secret kept in the credential store, generated on first use. */
export async function ensureSecret(store: CredentialStore, name: string, ids: IdGenerator): Promise<string> {
  const existing = await store.get(name);
  if (existing !== undefined) return existing;
  const value = ids.token(32);
  await store.set(name, value);
  return value;
}
