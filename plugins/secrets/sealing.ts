import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { ConfigError } from '../../core/kernel/index.js';
import type { Scope } from './scope.js';

const PREFIX = 'svc-secrets-key-v1:';
const KEY_BYTES = 32;
const IV_BYTES = 12;
const TAG_BYTES = 16;
const SEALED_PREFIX = 's1.';

/** The key that seals secret values at rest (AES-256-GCM). */
export interface SecretsKey {
  readonly text: string;
  readonly bytes: Buffer;
}

export function generateSecretsKey(): SecretsKey {
  const bytes = randomBytes(KEY_BYTES);
  return { text: `${PREFIX}${bytes.toString('base64url')}`, bytes };
}

export function parseSecretsKey(text: string, source: string): SecretsKey {
  const body = text.trim().startsWith(PREFIX) ? text.trim().slice(PREFIX.length) : '';
  const bytes = Buffer.from(body, 'base64url');
  if (bytes.length !== KEY_BYTES || bytes.toString('base64url') !== body) {
    throw new ConfigError(`${source} does not hold a secrets key (expected '${PREFIX}' + 43 base64url characters)`, { code: 'secrets_key_invalid' });
  }
  return { text: text.trim(), bytes };
}

/** Associated data: the name and the scope, so a sealed value moved to another name or scope does not open. */
function associatedData(scope: Scope, name: string): Buffer {
  return Buffer.from(JSON.stringify(['secret', scope.repository ?? '', scope.environment ?? '', name]), 'utf8');
}

export function sealSecret(key: SecretsKey, scope: Scope, name: string, value: string): string {
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv('aes-256-gcm', key.bytes, iv);
  cipher.setAAD(associatedData(scope, name));
  const body = Buffer.concat([cipher.update(value, 'utf8'), cipher.final()]);
  return `${SEALED_PREFIX}${Buffer.concat([iv, body, cipher.getAuthTag()]).toString('base64url')}`;
}

/** Opens what `sealSecret` sealed for the same scope and name; throws naming the secret, never showing anything of it. */
export function openSecret(key: SecretsKey, scope: Scope, name: string, sealed: string): string {
  const raw = sealed.startsWith(SEALED_PREFIX) ? Buffer.from(sealed.slice(SEALED_PREFIX.length), 'base64url') : Buffer.alloc(0);
  const damaged = () => new ConfigError(`the secret ${name} does not open with this installation's secrets key (damaged, moved, or sealed under another key)`, { code: 'secret_damaged' });
  if (raw.length < IV_BYTES + TAG_BYTES) throw damaged();
  const decipher = createDecipheriv('aes-256-gcm', key.bytes, raw.subarray(0, IV_BYTES));
  decipher.setAAD(associatedData(scope, name));
  decipher.setAuthTag(raw.subarray(raw.length - TAG_BYTES));
  try {
    return Buffer.concat([decipher.update(raw.subarray(IV_BYTES, raw.length - TAG_BYTES)), decipher.final()]).toString('utf8');
  } catch {
    throw damaged();
  }
}
