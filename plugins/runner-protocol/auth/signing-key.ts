import { createPrivateKey, createPublicKey, generateKeyPairSync, type KeyObject } from 'node:crypto';
import { calculateJwkThumbprint } from 'jose';
import type { CredentialStore } from '../../../core/ports/index.js';

/** Credential-store entry of the key that signs registration and runner access tokens. */
export const RUNNER_SIGNING_KEY_NAME = 'runner-protocol-signing-key';

export interface SigningKey {
  readonly privateKey: KeyObject;
  readonly publicKey: KeyObject;
  /** JWK thumbprint, sent as `kid`. */
  readonly kid: string;
}

/**
 * The server's token-signing key (RSA 2048, PKCS#8 PEM), generated into the credential store on
 * first use. It is read back after writing, so two processes racing on one store end up with the
 * same key. With the `memory` store a restart makes a new key: runners then get a 401 challenge
 * and simply exchange their client assertion again.
 */
export async function loadSigningKey(store: CredentialStore): Promise<SigningKey> {
  let pem = await store.get(RUNNER_SIGNING_KEY_NAME);
  if (pem === undefined) {
    const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
    await store.set(RUNNER_SIGNING_KEY_NAME, privateKey.export({ type: 'pkcs8', format: 'pem' }).toString());
    pem = await store.get(RUNNER_SIGNING_KEY_NAME);
    if (pem === undefined) throw new Error(`the credential store did not keep '${RUNNER_SIGNING_KEY_NAME}'`);
  }
  const privateKey = createPrivateKey(pem);
  const publicKey = createPublicKey(privateKey);
  const kid = await calculateJwkThumbprint(publicKey.export({ format: 'jwk' }) as Parameters<typeof calculateJwkThumbprint>[0]);
  return { privateKey, publicKey, kid };
}
