import type { Readable } from 'node:stream';

export interface BlobInfo {
  readonly key: string;
  readonly size: number;
  readonly modifiedAt: number;
}

/**
 * Opaque bytes by key (logs, cache entries, artifacts, snapshots). Keys are `/`-separated
 * segments of `[A-Za-z0-9._-]`; anything else (empty segments, `..`) is refused.
 */
export interface BlobStore {
  readonly kind: string;
  put(key: string, data: Buffer | Readable): Promise<BlobInfo>;
  /** Undefined when the key does not exist. */
  get(key: string): Promise<Readable | undefined>;
  stat(key: string): Promise<BlobInfo | undefined>;
  delete(key: string): Promise<boolean>;
  list(prefix: string): AsyncIterable<BlobInfo>;
}

export type SignedMethod = 'GET' | 'PUT';

export interface SignedUrlRequest {
  readonly key: string;
  readonly method: SignedMethod;
  readonly ttlSeconds: number;
}

/** HMAC-signed, expiring capability URLs for blobs (served by the blobs plugin). */
export interface BlobUrlSigner {
  /** Returns a path with query (`/_blobs/<key>?exp=...&sig=...`); prefix it with a base URL. */
  sign(request: SignedUrlRequest): string;
  /** Throws an AuthError naming the reason (expired, bad signature) when not valid. */
  verify(key: string, method: SignedMethod, query: Readonly<Record<string, unknown>>): void;
}
