import { createHmac, hkdfSync, randomBytes } from 'node:crypto';
import { ConfigError } from '../errors.js';
import { keyBytes, keyText, openText, SEALING_KEY_BYTES, sealText } from '../sealed-text.js';

/** Text form of a cluster key: a version tag, then 32 random bytes in base64url. */
const PREFIX = 'svc-cluster-key-v1:';
/** Sealed values start with this, so a later format can be told apart. */
const SEALED_PREFIX = 'v1.';

/**
 * The key that seals the shared keys at rest. Two keys are derived from it, never the key
 * itself used twice: one for AES-256-GCM, one for the verifier the database keeps so a node can
 * tell whether it holds the right key without the database ever holding anything that opens it.
 */
export interface ClusterKey {
  /** The text form (what `svc cluster-key export` prints). */
  readonly text: string;
  /** HMAC of a fixed label: recorded in the database, compared at every start. */
  readonly verifier: string;
  /** The verifier's first 12 characters, for messages ("cluster key 3fa9c2e01b7d"). */
  readonly id: string;
  readonly sealingKey: Buffer;
}

export function generateClusterKey(): ClusterKey {
  return clusterKeyFrom(randomBytes(SEALING_KEY_BYTES));
}

/** Parses a key's text form; `source` names where it came from in the error. */
export function parseClusterKey(text: string, source: string): ClusterKey {
  const bytes = keyBytes(PREFIX, text);
  if (bytes === undefined) {
    throw new ConfigError(`${source} does not hold a cluster key (expected one line '${PREFIX}' + 43 base64url characters, as \`svc cluster-key export\` prints)`, {
      code: 'cluster_key_invalid',
    });
  }
  return clusterKeyFrom(bytes);
}

/** An id of a verifier read from the database, for messages. */
export function verifierId(verifier: string): string {
  return verifier.slice(0, 12);
}

function clusterKeyFrom(bytes: Buffer): ClusterKey {
  const verifier = createHmac('sha256', bytes).update('svc-cluster-key-verifier-v1').digest('base64url');
  const sealingKey = Buffer.from(hkdfSync('sha256', bytes, Buffer.alloc(0), 'svc-shared-keys-seal-v1', SEALING_KEY_BYTES));
  return { text: keyText(PREFIX, bytes), verifier, id: verifierId(verifier), sealingKey };
}

/** AES-256-GCM with the entry's name as associated data: a sealed value moved to another name does not open. */
export function sealValue(key: ClusterKey, name: string, value: string): string {
  return sealText(key.sealingKey, Buffer.from(name, 'utf8'), value, SEALED_PREFIX);
}

/** Opens what `sealValue` sealed under `name`; throws naming the entry when it does not open. */
export function openValue(key: ClusterKey, name: string, sealed: string): string {
  const value = openText(key.sealingKey, Buffer.from(name, 'utf8'), sealed, SEALED_PREFIX);
  if (value !== undefined) return value;
  throw new ConfigError(`the shared key '${name}' in the database does not open with cluster key ${key.id} (not a sealed value, changed or damaged in the database)`, {
    code: 'shared_key_damaged',
  });
}
