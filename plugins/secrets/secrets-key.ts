import { ConfigError, ensureSharedKey, type Logger } from '../../core/kernel/index.js';
import type { Clock, CredentialStore, SharedKeys } from '../../core/ports/index.js';
import type { ValueRows } from './rows.js';
import { generateSecretsKey, openSecret, parseSecretsKey, type SecretsKey } from './sealing.js';

/** The shared-keys entry of the key that seals secret values. */
export const SECRETS_KEY_NAME = 'secrets.key';

/** This node's own credential store, when the key lives elsewhere (the shared keys on PostgreSQL): checked for a disagreeing `secrets.key`. */
export interface LocalKeyCheck {
  readonly local: CredentialStore;
  readonly clock: Clock;
  readonly logger: Logger;
}

/**
 * The secrets key, from the shared keys (the node's credential store on SQLite; sealed under the
 * cluster key in the database on PostgreSQL, so every node opens the same secrets). Rule 10: when
 * it cannot be read, the start fails naming what to unlock; when sealed secrets exist and the key
 * is missing, no replacement is generated (it would not open them); a key that does not open the
 * stored secrets stops the start too. When the key is shared (PostgreSQL) and this node's own
 * credential store holds a `secrets.key` that disagrees with it (e.g. from before the node joined),
 * that entry is renamed `secrets.key.orphan-<unix-ts>` (kept, not deleted) and a warning says so.
 */
export async function loadSecretsKey(keys: SharedKeys, rows: ValueRows, localCheck?: LocalKeyCheck): Promise<SecretsKey> {
  const where = keys.shared ? `the shared key '${SECRETS_KEY_NAME}' (sealed in the database under the cluster key)` : `the ${keys.kind} credential store's '${SECRETS_KEY_NAME}'`;
  let text: string | undefined;
  try {
    text = await keys.get(SECRETS_KEY_NAME);
  } catch (error) {
    throw new ConfigError(`cannot read the secrets key, ${where}: ${(error as Error).message}; unlock the credential store (or fix its permissions) and start again`, {
      code: 'secrets_key_unreadable',
      cause: error,
    });
  }
  const sealed = await rows.anySecret();
  if (text === undefined) {
    if (sealed !== undefined) {
      throw new ConfigError(
        `the database holds sealed secrets but the secrets key, ${where}, is missing${keys.persistent ? '' : ` (the ${keys.kind} credential store keeps nothing across restarts)`}: unlock or restore that credential store (credential_store, SVC_CREDENTIAL_STORE) and start again; no new key is generated, as it could not open them`,
        { code: 'secrets_key_missing' },
      );
    }
    text = await ensureSharedKey(keys, SECRETS_KEY_NAME, () => generateSecretsKey().text);
  }
  const key = parseSecretsKey(text, where);
  if (sealed !== undefined) {
    try {
      openSecret(key, sealed.scope, sealed.name, sealed.value);
    } catch {
      throw new ConfigError(`the secrets key, ${where}, does not open the secrets in the database (another installation's key?): restore the key they were sealed with and start again`, {
        code: 'secrets_key_mismatch',
      });
    }
  }
  if (keys.shared && localCheck !== undefined) await orphanDisagreeingLocalKey(key, localCheck);
  return key;
}

async function orphanDisagreeingLocalKey(key: SecretsKey, check: LocalKeyCheck): Promise<void> {
  const { local, clock, logger } = check;
  const text = await local.get(SECRETS_KEY_NAME);
  if (text === undefined || text.trim() === key.text) return;
  const orphan = `${SECRETS_KEY_NAME}.orphan-${Math.floor(clock.now() / 1000)}`;
  await local.set(orphan, text);
  await local.delete(SECRETS_KEY_NAME);
  logger.warn(
    { store: local.kind, renamed: orphan },
    `this node's ${local.kind} credential store held a '${SECRETS_KEY_NAME}' that disagrees with the shared secrets key; renamed it '${orphan}' (the shared key is the one in use)`,
  );
}
