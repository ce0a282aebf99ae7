import type { CredentialStore, IdGenerator, SharedKeys } from '../ports/index.js';
import { ensureSharedKey } from './shared-keys/ensure-shared-key.js';
import type { Logger } from './logger.js';

export const SYSTEM_TOKEN_NAME = 'system-token';
export const BLOB_SIGNING_KEY_NAME = 'blob-signing-key';

/**
 * The native system token: SVC_SYSTEM_TOKEN when set, else the one kept with the shared keys,
 * else a new one generated there. With several nodes the shared keys are in the database, so
 * every node answers to the same bearer; the token is also written to this node's credential
 * store, where the CLI on this machine reads it.
 */
export async function resolveSystemToken(fromEnv: string | undefined, stores: { readonly shared: SharedKeys; readonly local: CredentialStore }, ids: IdGenerator, logger: Logger): Promise<string> {
  if (fromEnv !== undefined) return fromEnv;
  const { shared, local } = stores;
  let made: string | undefined;
  const token = await ensureSharedKey(shared, SYSTEM_TOKEN_NAME, () => (made = `svc_${ids.token(32)}`));
  if (shared.shared && (await local.get(SYSTEM_TOKEN_NAME)) !== token) await local.set(SYSTEM_TOKEN_NAME, token);
  // Another node may have made it first: then that one is kept, and nothing was generated here.
  if (made !== token) return token;
  if (local.persistent) {
    logger.info({ credentialStore: local.kind, shared: shared.shared }, 'generated the system token into the credential store');
  } else {
    logger.warn('generated a system token in the memory credential store: nothing outside this process can read it; set SVC_SYSTEM_TOKEN to use the management API');
  }
  return token;
}
