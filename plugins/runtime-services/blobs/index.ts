// Blobs behind signed URLs with Azure block-blob semantics: the store, the URL signatures, the routes.
export { BLOB_PREFIX, createBlockBlobs, type BlobState, type BlockBlobs, type ByteRange, type OpenedBlob } from './block-blobs.js';
export { checkBlockId, MAX_BLOCKS, parseBlockList } from './block-list.js';
export { parseByteRange, RangeNotSatisfiableError } from './byte-range.js';
export { BLOB_ROUTE, registerBlobRoutes, type BlobRouteDeps } from './blob-routes.js';
export { createBlobUrlCapabilities, loadUrlKey, URL_KEY_NAME, type BlobUrlCapabilities, type SignOptions, type UrlPermission } from './url-signer.js';
export { createBlobWriterCheck, type BlobWriterCheck } from './blob-writers.js';
