import { coreServices, definePlugin, RUNNER_SURFACES } from '../../core/kernel/index.js';
import { BLOB_ROUTE_PREFIX, registerBlobDownloadRoute, registerBlobUploadRoute } from './blob-routes.js';

/** Serves the blob store behind HMAC-signed, expiring URLs (logs, caches, artifacts use them). */
export const plugin = definePlugin({
  id: 'blobs',
  apiVersion: 1,
  deps: { store: coreServices.blobStore, signer: coreServices.blobSigner },
  init({ store, signer }, env) {
    // Downloads are part of the runner surface (action archives); uploads stay on TCP.
    env.addRoutes({ prefix: BLOB_ROUTE_PREFIX, auth: 'public', surfaces: RUNNER_SURFACES, register: (app) => registerBlobDownloadRoute(app, store, signer) });
    env.addRoutes({ prefix: BLOB_ROUTE_PREFIX, auth: 'public', register: (app) => registerBlobUploadRoute(app, store, signer) });
  },
});
