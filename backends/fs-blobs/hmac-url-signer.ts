import { createHmac, timingSafeEqual } from 'node:crypto';
import { AuthError, ConfigError, InputError, isSvcError } from '../../core/kernel/index.js';
import type { BlobUrlSigner, Clock, SignedMethod } from '../../core/ports/index.js';
import { assertBlobKey } from './blob-keys.js';

const METHODS: ReadonlySet<string> = new Set<SignedMethod>(['GET', 'PUT']);
const MIN_KEY_BYTES = 16;
/** Separates this MAC from any other use of the same key. */
const DOMAIN = 'svc-blob-url-v1';

export interface HmacUrlSignerOptions {
  /** Secret from the credential store; at least 16 bytes. */
  readonly signingKey: string;
  readonly clock: Clock;
  /** Path the blobs plugin serves; default `/_blobs`. */
  readonly basePath?: string;
}

/**
 * Capability URLs: `/_blobs/<key>?exp=<epoch seconds>&sig=<base64url HMAC-SHA256>`, the MAC
 * covering method, key and expiry. A URL is valid through the second named by `exp`.
 */
export function createHmacUrlSigner(options: HmacUrlSignerOptions): BlobUrlSigner {
  if (Buffer.byteLength(options.signingKey) < MIN_KEY_BYTES) {
    throw new ConfigError(`the blob URL signing key must be at least ${MIN_KEY_BYTES} bytes`, { code: 'config_invalid' });
  }
  const secret = Buffer.from(options.signingKey);
  const basePath = options.basePath ?? '/_blobs';
  const mac = (method: string, key: string, exp: number): string =>
    createHmac('sha256', secret).update(`${DOMAIN}\n${method}\n${key}\n${exp}`).digest('base64url');
  const nowSeconds = (): number => Math.floor(options.clock.now() / 1000);

  return {
    sign({ key, method, ttlSeconds }) {
      assertBlobKey(key);
      if (!METHODS.has(method)) throw new InputError(`signed blob URLs are for GET or PUT, not ${String(method)}`);
      if (!Number.isSafeInteger(ttlSeconds) || ttlSeconds <= 0) {
        throw new InputError(`a signed URL's ttl must be a positive whole number of seconds, got ${ttlSeconds}`);
      }
      const exp = nowSeconds() + ttlSeconds;
      return `${basePath}/${key}?exp=${exp}&sig=${mac(method, key, exp)}`;
    },

    verify(key, method, query) {
      const { exp, sig } = query;
      if (typeof exp !== 'string' || !/^[0-9]{1,15}$/.test(exp) || typeof sig !== 'string') {
        throw invalid('the URL lacks a well-formed exp and sig');
      }
      try {
        assertBlobKey(key);
      } catch (error) {
        if (isSvcError(error)) throw invalid('the URL names no valid blob key');
        throw error;
      }
      const expected = Buffer.from(mac(method, key, Number(exp)));
      const given = Buffer.from(sig);
      // Comparing the encoded strings refuses non-canonical spellings of the same bytes too.
      if (given.length !== expected.length || !timingSafeEqual(given, expected)) {
        throw invalid('the signature does not match this blob, method and expiry');
      }
      if (nowSeconds() > Number(exp)) {
        throw new AuthError('signed URL expired; ask for a new one', { code: 'signature_expired' });
      }
    },
  };
}

function invalid(reason: string): AuthError {
  return new AuthError(`signed URL refused: ${reason}`, { code: 'signature_invalid' });
}
