import { coreServices, definePlugin } from '../../core/kernel/index.js';
import { BLOB_ROUTE_PREFIX, registerBlobRoutes } from './blob-routes.js';

/** Serves the blob store behind HMAC-signed, expiring URLs (logs, caches, artifacts use them). */
export const plugin = definePlugin({
  id: 'blobs',
  apiVersion: 1,
  deps: { store: coreServices.blobStore, signer: coreServices.blobSigner },
  init({ store, signer }, env) {
    env.addRoutes({ prefix: BLOB_ROUTE_PREFIX, auth: 'public', register: (app) => registerBlobRoutes(app, store, signer) });
  },
});
