export { BLOB_DIRECTORY, createFilesystemBlobs, filesystemBlobs } from './filesystem-blobs.js';
export { createFilesystemBlobStore } from './filesystem-blob-store.js';
export { createHmacUrlSigner, type HmacUrlSignerOptions } from './hmac-url-signer.js';
export { assertBlobKey, assertBlobPrefix } from './blob-keys.js';
