import { constants, privateDecrypt, publicEncrypt, randomBytes, type KeyObject } from 'node:crypto';
import type { TaskAgentSessionKey } from '../sessions/index.js';
import { checkAesKey } from './aes-cbc.js';
import { decodeBase64, encodeBase64 } from './base64.js';
import { ProtocolCryptoError } from './protocol-crypto-error.js';
import { rsaParametersToPrivateKey, taskAgentPublicKeyToKeyObject, type RsaParameters, type TaskAgentPublicKey } from './rsa-parameters.js';

// The session key hand-over of the legacy flow. The server creates an AES key per session and
// returns it in the session response as `encryptionKey`. The runner unwraps it in actions/runner
// src/Runner.Listener/MessageListener.cs, GetMessageDecryptor: when `encryptionKey.encrypted` is
// true it calls RSA.Decrypt on `value` with RSAEncryptionPadding.OaepSHA256 if the session's
// `useFipsEncryption` is true and RSAEncryptionPadding.OaepSHA1 otherwise; when false it uses
// `value` as the raw AES key. .NET's OaepSHA1/OaepSHA256 are RSAES-OAEP with MGF1 over the same
// hash and an empty label; node's `oaepHash` sets the OAEP hash and MGF1 together, with no label.
// The RSA key is the runner's (IRSAKeyManager.GetKey: the `.credentials_rsaparams` key whose
// public half was uploaded at registration).

/** Session key length the server creates: AES-256 (the runner accepts 16, 24 or 32 bytes). */
export const SESSION_KEY_BYTES = 32;

/** The OAEP hash for a session's `useFipsEncryption`. */
export type OaepHash = 'sha1' | 'sha256';

export interface SessionKeyOptions {
  /** The session response's `useFipsEncryption`: true wraps with OAEP-SHA256, false with OAEP-SHA1. */
  readonly useFipsEncryption: boolean;
}

export function sessionKeyOaepHash(useFipsEncryption: boolean): OaepHash {
  return useFipsEncryption ? 'sha256' : 'sha1';
}

/** A fresh AES-256 session key; `random` is injectable for tests. */
export function createSessionKey(random: (size: number) => Buffer = randomBytes): Buffer {
  const key = random(SESSION_KEY_BYTES);
  if (key.length !== SESSION_KEY_BYTES) {
    throw new ProtocolCryptoError('invalid_key', `the random source returned ${key.length} bytes, expected ${SESSION_KEY_BYTES}`);
  }
  return key;
}

/**
 * The session response's `encryptionKey`: `key` RSA-OAEP-encrypted with the runner's public key
 * (as uploaded at registration, or as a KeyObject). Pair it with the same `useFipsEncryption`
 * in the response, or the runner unwraps with the wrong hash and fails.
 */
export function wrapSessionKey(key: Uint8Array, publicKey: TaskAgentPublicKey | KeyObject, options: SessionKeyOptions): TaskAgentSessionKey {
  checkAesKey(key);
  const rsaKey = 'modulus' in publicKey ? taskAgentPublicKeyToKeyObject(publicKey) : publicKey;
  let wrapped: Buffer;
  try {
    wrapped = publicEncrypt({ key: rsaKey, padding: constants.RSA_PKCS1_OAEP_PADDING, oaepHash: sessionKeyOaepHash(options.useFipsEncryption) }, key);
  } catch (error) {
    // e.g. a registered key too small for OAEP over a 32-byte payload, or not an RSA key.
    throw new ProtocolCryptoError('invalid_rsa_parameters', `the runner's public key cannot wrap a session key: ${(error as Error).message}`, { cause: error });
  }
  return { encrypted: true, value: encodeBase64(wrapped) };
}

/** An `encryptionKey` carrying the raw AES key (`encrypted: false`); the runner accepts it, but it travels in clear. */
export function plainSessionKey(key: Uint8Array): TaskAgentSessionKey {
  checkAesKey(key);
  return { encrypted: false, value: encodeBase64(key) };
}

/**
 * What the runner does with a session response's `encryptionKey` (for svc-runner): `undefined`
 * when it is absent or empty (messages are then plain JSON), else the AES key, RSA-unwrapped with
 * the runner's private key when `encrypted` is true (absent reads as false, as in .NET).
 */
export function unwrapSessionKey(
  sessionKey: TaskAgentSessionKey | null | undefined,
  privateKey: KeyObject | RsaParameters,
  options: SessionKeyOptions,
): Buffer | undefined {
  if (sessionKey === null || sessionKey === undefined || sessionKey.value === undefined || sessionKey.value === null) return undefined;
  const value = decodeBase64(sessionKey.value, 'encryptionKey.value');
  if (value.length === 0) return undefined;
  let key = value;
  if (sessionKey.encrypted === true) {
    const rsaKey = 'modulus' in privateKey ? rsaParametersToPrivateKey(privateKey) : privateKey;
    try {
      key = privateDecrypt({ key: rsaKey, padding: constants.RSA_PKCS1_OAEP_PADDING, oaepHash: sessionKeyOaepHash(options.useFipsEncryption) }, value);
    } catch (error) {
      throw new ProtocolCryptoError(
        'unwrap_failed',
        `the session key does not decrypt with this runner's RSA key and OAEP-${options.useFipsEncryption ? 'SHA256' : 'SHA1'}`,
        { cause: error },
      );
    }
  }
  checkAesKey(key);
  return key;
}
