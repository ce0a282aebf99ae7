/**
 * The signed upload URLs the results service hands out (`logs_url`, `summary_url`,
 * `diag_logs_url`): `<public url>/_results/uploads/<upload id>?exp=…&sig=…`, signed by the host's
 * blob URL signer (HMAC over method, name and expiry) for `PUT` of the name
 * `runner-results-upload/<upload id>`. That name is never a stored blob's key: the blocks are
 * stored under keys of their own (upload-route.ts), so the URL opens this upload and nothing else.
 *
 * The URL already has a query string, because the runner appends `&comp=appendblock` (and
 * `&seal=true`) to it as text (§4.6).
 */
import { AuthError, ForbiddenError } from '../../../core/kernel/index.js';
import type { BlobUrlSigner } from '../../../core/ports/index.js';

export const RESULTS_UPLOAD_PREFIX = '/_results/uploads';

/** The runner asks for a fresh URL before each block, so an hour is ample. */
export const UPLOAD_URL_TTL_SECONDS = 60 * 60;

export interface UploadUrls {
  urlOf(uploadId: string): string;
  /** Throws ForbiddenError (403, as Azure answers a bad SAS) when the URL is not signed for this upload or expired. */
  verify(uploadId: string, query: Readonly<Record<string, unknown>>): void;
}

const signedName = (uploadId: string): string => `runner-results-upload/${uploadId}`;

export function createUploadUrls(signer: BlobUrlSigner, baseUrl: () => string, ttlSeconds = UPLOAD_URL_TTL_SECONDS): UploadUrls {
  return {
    urlOf(uploadId) {
      const signed = signer.sign({ key: signedName(uploadId), method: 'PUT', ttlSeconds });
      // The signer answers a path and query for the blobs plugin; only its query is ours to use.
      const query = signed.slice(signed.indexOf('?'));
      return `${baseUrl().replace(/\/+$/, '')}${RESULTS_UPLOAD_PREFIX}/${uploadId}${query}`;
    },
    verify(uploadId, query) {
      try {
        signer.verify(signedName(uploadId), 'PUT', query);
      } catch (error) {
        if (error instanceof AuthError) throw new ForbiddenError(error.message, { code: error.code });
        throw error;
      }
    },
  };
}
