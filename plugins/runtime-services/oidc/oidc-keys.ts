import { createPrivateKey, createPublicKey, generateKeyPairSync, type KeyObject } from 'node:crypto';
import { calculateJwkThumbprint, type JWK } from 'jose';
import type { Clock, SharedKeys } from '../../../core/ports/index.js';

/** Shared-keys entry holding the OIDC signing keys (JSON, private keys as PKCS#8 PEM). */
export const OIDC_KEYS_NAME = 'runtime-services-oidc-keys';
const HOUR_MS = 60 * 60 * 1000;
/** How often another process's rotation is picked up from the store. */
const RELOAD_MS = 60_000;
/** Conditional writes tried before giving up (each loss adopts the winner's ring first). */
const WRITE_ATTEMPTS = 5;

interface StoredKey {
  readonly kid: string;
  readonly pem: string;
  /** Epoch ms from which tokens are signed with it. */
  readonly activatesAt: number;
}

export interface SigningKey {
  readonly kid: string;
  readonly privateKey: KeyObject;
}

/**
 * The OIDC provider's RS256 keys, rotated with overlap: every `rotationMs` a new key is made and
 * published in the JWKS `lead` ahead of signing with it (verifiers that cache the JWKS know it
 * before they see a token signed by it); a replaced key stays published for `lead` more (tokens
 * live 5 minutes). `lead` is a quarter of the rotation, at most a day. Kept in the shared keys
 * (the database with several nodes). Every change is a conditional write over the ring this
 * process last read: when two nodes rotate at once, one write wins and the other node adopts the
 * winner's ring (and re-applies the policy to it), so the ring never forks. Another node's
 * rotation is seen within RELOAD_MS, far less than `lead`, so every node publishes a key
 * before any node signs with it.
 */
export interface OidcKeyRing {
  signingKey(): Promise<SigningKey>;
  /** The published keys (JWKS `keys`): upcoming, current, and recently replaced. */
  publishedKeys(): Promise<JWK[]>;
}

export function createOidcKeyRing(options: { readonly store: SharedKeys; readonly clock: Clock; readonly rotationMs: number }): OidcKeyRing {
  const { store, clock, rotationMs } = options;
  const lead = Math.min(24 * HOUR_MS, Math.floor(rotationMs / 4));
  let keys: StoredKey[] | undefined;
  /** The stored text `keys` was read from: what a conditional write expects to replace. */
  let stored: string | undefined;
  let loadedAt = 0;
  let pending: Promise<StoredKey[]> = Promise.resolve([]);
  const objects = new Map<string, KeyObject>();

  const parse = (raw: string | undefined): StoredKey[] => {
    if (raw === undefined) return [];
    const parsed = JSON.parse(raw) as { keys?: StoredKey[] };
    return [...(parsed.keys ?? [])].sort((a, b) => a.activatesAt - b.activatesAt);
  };
  const adopt = (raw: string | undefined): StoredKey[] => {
    stored = raw;
    keys = parse(raw);
    return keys;
  };

  const newKey = async (activatesAt: number): Promise<StoredKey> => {
    const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
    const kid = await calculateJwkThumbprint(createPublicKey(privateKey).export({ format: 'jwk' }) as JWK);
    return { kid, pem: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(), activatesAt };
  };

  /** The key set for `now`: made, rotated and pruned as the policy says; written when it changed. */
  const ensure = async (): Promise<StoredKey[]> => {
    const now = clock.now();
    let ring = keys;
    if (ring === undefined || now - loadedAt > RELOAD_MS) {
      ring = adopt(await store.get(OIDC_KEYS_NAME));
      loadedAt = now;
    }
    for (let attempt = 1; ; attempt++) {
      const next = await applyPolicy(ring, now);
      if (next.length === ring.length && next.every((key, index) => key.kid === ring?.[index]?.kid)) return ring;
      const mine = JSON.stringify({ keys: next });
      ring = adopt(await store.compareAndSet(OIDC_KEYS_NAME, stored, mine));
      // Lost to another node's write: its ring is adopted, and the policy applied to it again.
      if (stored === mine || attempt >= WRITE_ATTEMPTS) return ring;
    }
  };

  const applyPolicy = async (ring: readonly StoredKey[], now: number): Promise<StoredKey[]> => {
    let next = [...ring];
    const newest = next.at(-1);
    if (newest === undefined) next.push(await newKey(now));
    else if (newest.activatesAt <= now && now >= newest.activatesAt + rotationMs - lead) {
      next.push(await newKey(Math.max(now + lead, newest.activatesAt + rotationMs)));
    }
    // A key replaced (its successor active) more than `lead` ago is unpublished.
    next = next.filter((key, index) => {
      const successor = next[index + 1];
      return successor === undefined || successor.activatesAt > now || successor.activatesAt + lead > now;
    });
    return next;
  };
  const current = (): Promise<StoredKey[]> => (pending = pending.then(ensure, ensure));

  const keyObject = (key: StoredKey): KeyObject => {
    let object = objects.get(key.kid);
    if (object === undefined) {
      object = createPrivateKey(key.pem);
      objects.set(key.kid, object);
    }
    return object;
  };

  return {
    async signingKey() {
      const now = clock.now();
      const ring = await current();
      const active = ring.filter((key) => key.activatesAt <= now).at(-1) ?? ring[0];
      if (active === undefined) throw new Error('the OIDC key ring is empty');
      return { kid: active.kid, privateKey: keyObject(active) };
    },
    async publishedKeys() {
      return (await current()).map((key) => ({
        ...(createPublicKey(keyObject(key)).export({ format: 'jwk' }) as JWK),
        kid: key.kid,
        alg: 'RS256',
        use: 'sig',
      }));
    },
  };
}
