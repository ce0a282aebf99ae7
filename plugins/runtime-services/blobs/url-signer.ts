import { createHmac, timingSafeEqual } from 'node:crypto';
import { AuthError, ensureSharedKey } from '../../../core/kernel/index.js';
import type { Clock, IdGenerator, SharedKeys } from '../../../core/ports/index.js';

/** Shared-keys entry of the secret the upload and download URLs are signed with. */
export const URL_KEY_NAME = 'runtime-services-url-key';
/** Separates this MAC from any other use of a key. */
const DOMAIN = 'svc-runtime-blob-v1';

/** `r`: download (GET, HEAD); `w`: upload (PUT blocks, block lists, whole blobs). */
export type UrlPermission = 'r' | 'w';

export interface SignOptions {
  /** `Content-Disposition` the download answers with (Azure's `rscd`), signed with the rest. */
  readonly contentDisposition?: string;
}

/**
 * Capability URLs for one blob, in the spirit of an Azure SAS: `sp` (permission), `se` (expiry,
 * epoch seconds), optional `rscd`, and `sig` (HMAC-SHA256 over blob id, permission, expiry and
 * `rscd`, base64url). The toolkit masks `sig` in its logs. Own signatures, not the kernel's
 * `/_blobs` signer: those grant a raw PUT of a blob-store key, which would bypass the block
 * semantics and the sealing of finalized entries.
 */
export interface BlobUrlCapabilities {
  /** The query string (without `?`) that opens `blobId` for `permission` during `ttlSeconds`. */
  sign(blobId: string, permission: UrlPermission, ttlSeconds: number, options?: SignOptions): string;
  /** Throws `AuthError` (`signature_invalid`, `signature_expired`); returns what was signed with it. */
  verify(blobId: string, permission: UrlPermission, query: Readonly<Record<string, unknown>>): SignOptions;
}

/** The URL key, the same on every node (of two processes racing to make it, both keep the first). */
export function loadUrlKey(store: SharedKeys, ids: IdGenerator): Promise<string> {
  return ensureSharedKey(store, URL_KEY_NAME, () => ids.token(32));
}

export function createBlobUrlCapabilities(secret: string, clock: Clock): BlobUrlCapabilities {
  const key = Buffer.from(secret);
  const mac = (blobId: string, sp: string, se: string, rscd: string): string =>
    createHmac('sha256', key).update(`${DOMAIN}\n${blobId}\n${sp}\n${se}\n${rscd}`).digest('base64url');
  const nowSeconds = (): number => Math.floor(clock.now() / 1000);
  return {
    sign(blobId, permission, ttlSeconds, options = {}) {
      const se = String(nowSeconds() + Math.ceil(ttlSeconds));
      const rscd = options.contentDisposition ?? '';
      const params = new URLSearchParams({ sp: permission, se });
      if (rscd !== '') params.set('rscd', rscd);
      params.set('sig', mac(blobId, permission, se, rscd));
      return params.toString();
    },
    verify(blobId, permission, query) {
      const { sp, se, sig, rscd } = query;
      if (typeof sp !== 'string' || typeof se !== 'string' || !/^[0-9]{1,15}$/.test(se) || typeof sig !== 'string') {
        throw new AuthError('the URL is not signed (sp, se and sig are required)', { code: 'signature_invalid' });
      }
      if (rscd !== undefined && typeof rscd !== 'string') throw new AuthError('the URL has a malformed rscd', { code: 'signature_invalid' });
      const expected = Buffer.from(mac(blobId, sp, se, rscd ?? ''));
      const given = Buffer.from(sig);
      if (given.length !== expected.length || !timingSafeEqual(given, expected)) {
        throw new AuthError('the signature does not match this blob, permission and expiry', { code: 'signature_invalid' });
      }
      if (sp !== permission) throw new AuthError(`the URL grants '${sp}', this request needs '${permission}'`, { code: 'signature_invalid' });
      if (nowSeconds() > Number(se)) throw new AuthError('the signed URL has expired; ask the service for a new one', { code: 'signature_expired' });
      return rscd === undefined || rscd === '' ? {} : { contentDisposition: rscd };
    },
  };
}
