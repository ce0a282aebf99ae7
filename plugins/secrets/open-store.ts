import type { Logger, SvcConfig } from '../../core/kernel/index.js';
import type { Clock, CredentialStore, SharedKeys } from '../../core/ports/index.js';
import { openConfigSecrets, readCredentialOverlay } from './fixed-sources.js';
import type { ValueRows } from './rows.js';
import { createSecretStore, type SecretStore } from './secret-store.js';
import { loadSecretsKey } from './secrets-key.js';
import type { SecretsKey } from './sealing.js';

export interface OpenedSecrets {
  readonly store: SecretStore;
  readonly key: SecretsKey;
}

/**
 * What the start does before the server listens: loads the secrets key (rule 10), opens the config
 * file's sealed `[secrets]` maps and reads the service-manager credential overlay (rule 11). Any
 * of them failing stops the start with a message naming the key, file or entry.
 */
export async function openSecrets(deps: {
  readonly config: SvcConfig;
  readonly rows: ValueRows;
  readonly sharedKeys: SharedKeys;
  readonly credentialStore: CredentialStore;
  readonly clock: Clock;
  readonly logger: Logger;
}): Promise<OpenedSecrets> {
  const { config, rows, clock, logger } = deps;
  const key = await loadSecretsKey(deps.sharedKeys, rows, { local: deps.credentialStore, clock, logger });
  const now = clock.now();
  const fromConfig = openConfigSecrets(config.operator.secrets, key, config.configFile, now);
  const credential = readCredentialOverlay(config.env.credentialsDirectory, now);
  if (fromConfig.length > 0) logger.info({ count: fromConfig.length }, 'secrets from the config file [secrets] tables');
  if (credential.length > 0) logger.info({ count: credential.length }, 'secrets from the service-manager credential svc-secrets (they overlay the store)');
  return { key, store: createSecretStore({ rows, key, clock, fixed: { config: fromConfig, credential } }) };
}
