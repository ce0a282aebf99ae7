import { createPublicKey, type KeyObject } from 'node:crypto';
import type { RsaPublicKey } from '../store/index.js';

/** Smallest key accepted at registration (the runner makes 2048-bit keys). */
export const MIN_RSA_KEY_BITS = 2048;

const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

/** Minimal big-endian bytes as base64url, the JWK form of an RSA integer. */
function jwkInteger(base64: string): string {
  const bytes = Buffer.from(base64, 'base64');
  let start = 0;
  while (start < bytes.length - 1 && bytes[start] === 0) start++;
  return bytes.subarray(start).toString('base64url');
}

/**
 * The runner's uploaded public key (TaskAgentPublicKey: base64 big-endian `exponent` and
 * `modulus`) as a KeyObject, or a reason it is not a usable RSA key.
 */
export function publicKeyObject(key: RsaPublicKey): KeyObject | string {
  if (!BASE64.test(key.exponent) || !BASE64.test(key.modulus) || key.exponent === '' || key.modulus === '') {
    return 'authorization.publicKey needs base64 "exponent" and "modulus"';
  }
  let object: KeyObject;
  try {
    object = createPublicKey({ key: { kty: 'RSA', n: jwkInteger(key.modulus), e: jwkInteger(key.exponent) }, format: 'jwk' });
  } catch {
    return 'authorization.publicKey is not an RSA public key';
  }
  const bits = object.asymmetricKeyDetails?.modulusLength ?? 0;
  if (bits < MIN_RSA_KEY_BITS) return `authorization.publicKey has ${bits} bits; at least ${MIN_RSA_KEY_BITS} are required`;
  return object;
}

/** The public half of a key pair in the runner's upload form. */
export function rsaPublicKeyOf(key: KeyObject): RsaPublicKey {
  const jwk = createPublicKey(key).export({ format: 'jwk' });
  return { exponent: Buffer.from(String(jwk.e), 'base64url').toString('base64'), modulus: Buffer.from(String(jwk.n), 'base64url').toString('base64') };
}
