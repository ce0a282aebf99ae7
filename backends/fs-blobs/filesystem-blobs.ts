import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { BlobBackend, BlobBackendContext, BlobBackendInstance } from '../../core/kernel/index.js';
import { createFilesystemBlobStore } from './filesystem-blob-store.js';
import { createHmacUrlSigner } from './hmac-url-signer.js';

export const BLOB_DIRECTORY = 'blobs';

/**
 * Blobs under `<dataDir>/blobs`, or in the shared directory SVC_BLOB_DIR names (several nodes
 * may write there at once: see filesystem-blob-store.ts); signed URLs with the credential
 * store's key.
 */
export async function createFilesystemBlobs(context: BlobBackendContext): Promise<BlobBackendInstance> {
  const root = context.directory ?? join(context.dataDir, BLOB_DIRECTORY);
  await mkdir(root, { recursive: true });
  return {
    store: createFilesystemBlobStore(root, context.clock),
    signer: createHmacUrlSigner({ signingKey: context.signingKey, clock: context.clock }),
  };
}

export const filesystemBlobs: BlobBackend = {
  kind: 'blobs',
  id: 'filesystem',
  create: createFilesystemBlobs,
};
