import { createPrivateKey, createPublicKey, generateKeyPairSync, type KeyObject } from 'node:crypto';
import { calculateJwkThumbprint } from 'jose';
import { ensureSharedKey } from '../../../core/kernel/index.js';
import type { SharedKeys } from '../../../core/ports/index.js';

/** Shared-keys entry of the key that signs registration and runner access tokens. */
export const RUNNER_SIGNING_KEY_NAME = 'runner-protocol-signing-key';

export interface SigningKey {
  readonly privateKey: KeyObject;
  readonly publicKey: KeyObject;
  /** JWK thumbprint, sent as `kid`. */
  readonly kid: string;
}

/**
 * The server's token-signing key (RSA 2048, PKCS#8 PEM), generated into the shared keys on first
 * use (the database with several nodes, so any node verifies what another signed). Created with a
 * conditional write, so two processes racing end up with the same key. With the `memory` store a
 * restart makes a new key: runners then get a 401 challenge and simply exchange their client
 * assertion again.
 */
export async function loadSigningKey(store: SharedKeys): Promise<SigningKey> {
  const pem = await ensureSharedKey(store, RUNNER_SIGNING_KEY_NAME, () =>
    generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
  );
  const privateKey = createPrivateKey(pem);
  const publicKey = createPublicKey(privateKey);
  const kid = await calculateJwkThumbprint(publicKey.export({ format: 'jwk' }) as Parameters<typeof calculateJwkThumbprint>[0]);
  return { privateKey, publicKey, kid };
}
