import { randomBytes } from 'node:crypto';
import { ConfigError, keyBytes, keyText, openText, SEALING_KEY_BYTES, sealText } from '../../core/kernel/index.js';
import type { Scope } from './scope.js';

const PREFIX = 'svc-secrets-key-v1:';
const SEALED_PREFIX = 's1.';

/** The key that seals secret values at rest (AES-256-GCM). */
export interface SecretsKey {
  readonly text: string;
  readonly bytes: Buffer;
}

export function generateSecretsKey(): SecretsKey {
  const bytes = randomBytes(SEALING_KEY_BYTES);
  return { text: keyText(PREFIX, bytes), bytes };
}

export function parseSecretsKey(text: string, source: string): SecretsKey {
  const bytes = keyBytes(PREFIX, text);
  if (bytes === undefined) {
    throw new ConfigError(`${source} does not hold a secrets key (expected '${PREFIX}' + 43 base64url characters)`, { code: 'secrets_key_invalid' });
  }
  return { text: text.trim(), bytes };
}

/** Associated data: the name and the scope, so a sealed value moved to another name or scope does not open. */
function associatedData(scope: Scope, name: string): Buffer {
  return Buffer.from(JSON.stringify(['secret', scope.repository ?? '', scope.environment ?? '', name]), 'utf8');
}

export function sealSecret(key: SecretsKey, scope: Scope, name: string, value: string): string {
  return sealText(key.bytes, associatedData(scope, name), value, SEALED_PREFIX);
}

/** Opens what `sealSecret` sealed for the same scope and name; throws naming the secret, never showing anything of it. */
export function openSecret(key: SecretsKey, scope: Scope, name: string, sealed: string): string {
  const value = openText(key.bytes, associatedData(scope, name), sealed, SEALED_PREFIX);
  if (value !== undefined) return value;
  throw new ConfigError(`the secret ${name} does not open with this installation's secrets key (damaged, moved, or sealed under another key)`, { code: 'secret_damaged' });
}

/**
 * The sealed form of a `[secrets]` entry in the config file (`svc secret seal` prints it):
 * `svc-sealed-v1:` + base64url(iv, ciphertext, tag), AES-256-GCM under the secrets key with
 * `["config", repository, environment, name]` as associated data. The version is in the prefix;
 * the binding differs from the stored rows', so neither form opens as the other.
 */
export const CONFIG_SEALED_PREFIX = 'svc-sealed-v1:';

function configAssociatedData(scope: Scope, name: string): Buffer {
  return Buffer.from(JSON.stringify(['config', scope.repository ?? '', scope.environment ?? '', name]), 'utf8');
}

export function sealConfigSecret(key: SecretsKey, scope: Scope, name: string, value: string): string {
  return sealText(key.bytes, configAssociatedData(scope, name), value, CONFIG_SEALED_PREFIX);
}

/** The value of a config file entry; undefined when it does not open (tampered, another name or scope, another key). */
export function openConfigSecret(key: SecretsKey, scope: Scope, name: string, sealed: string): string | undefined {
  return openText(key.bytes, configAssociatedData(scope, name), sealed.trim(), CONFIG_SEALED_PREFIX);
}

const LABELLED_PREFIX = 'l1.';

/** Seals other text under the secrets key (run-supplied values, a waiting job message's secrets); `label` is the associated data. */
export function sealLabelled(key: SecretsKey, label: string, text: string): string {
  return sealText(key.bytes, Buffer.from(JSON.stringify(['labelled', label]), 'utf8'), text, LABELLED_PREFIX);
}

export function openLabelled(key: SecretsKey, label: string, sealed: string): string {
  const text = openText(key.bytes, Buffer.from(JSON.stringify(['labelled', label]), 'utf8'), sealed, LABELLED_PREFIX);
  if (text !== undefined) return text;
  throw new ConfigError(`sealed values (${label}) do not open with this installation's secrets key (damaged, moved, or sealed under another key)`, { code: 'secret_damaged' });
}
