import { engineServiceRef } from '../../core/engine/index.js';
import { coreServices, definePlugin, RUNNER_SURFACES } from '../../core/kernel/index.js';
import { runtimeJobsServiceRef } from '../../core/ports/index.js';
import { createArtifactService, createRunArtifacts, registerArtifactApiRoutes, registerArtifactTwirp, registerArtifactUrlRoute } from './artifacts/index.js';
import { createRuntimeAuth } from './auth/index.js';
import { createBlobUrlCapabilities, createBlobWriterCheck, createBlockBlobs, loadUrlKey, registerBlobRoutes } from './blobs/index.js';
import { createCacheService, registerCacheTwirp, registerCacheV1Routes } from './cache/index.js';
import { runtimeServicesCommands } from './cli/index.js';
import { createOidcKeyRing, registerOidcRoutes } from './oidc/index.js';
import { runtimeDb, runtimeServicesMigrations } from './store/index.js';
import { createSweeper } from './sweeper.js';

export { sweepRuntimeServices, type SweepDeps, type SweepReport } from './sweeper.js';
export { runtimeServicesMigrations } from './store/index.js';

const DAY_MS = 24 * 60 * 60 * 1000;
/** An upload URL's lifetime; a reservation or artifact upload not finalized by then is abandoned. */
export const UPLOAD_TTL_SECS = 2 * 60 * 60;
/** A download URL's lifetime (checked when the download starts). */
export const DOWNLOAD_TTL_SECS = 60 * 60;

export interface RuntimeServicesOptions {
  /** Interval of the cache-eviction and artifact-retention sweep; default a minute. */
  readonly sweepEveryMs?: number;
}

/**
 * The services actions reach during a job (RUNNER-PROTOCOL.md §5): the cache (v2 Twirp
 * `CacheService` and v1 `_apis/artifactcache`), artifacts v4 (Twirp `ArtifactService`), their
 * uploads and downloads through signed URLs with Azure block-blob semantics (`/_runtime/blobs`),
 * and the OIDC provider (`/_apis/oidc/idtoken`, `/.well-known/openid-configuration`,
 * `/.well-known/jwks`). Jobs are recognised by their runtime token through the runner-protocol
 * plugin's `runtimeJobsServiceRef`. For people: a run's artifacts under `/api/v1` (system
 * bearer), the artifact URL upload-artifact prints, and `svc artifacts`. README.md has the
 * routes, the settings and the host gate.
 */
export function createRuntimeServicesPlugin(options: RuntimeServicesOptions = {}) {
  return definePlugin({
    id: 'runtime-services',
    apiVersion: 1,
    deps: {
      config: coreServices.config,
      database: coreServices.database,
      blobStore: coreServices.blobStore,
      sharedKeys: coreServices.sharedKeys,
      clock: coreServices.clock,
      ids: coreServices.ids,
      lifecycle: coreServices.lifecycle,
      logger: coreServices.logger,
      systemAuth: coreServices.systemAuth,
      runtimeJobs: runtimeJobsServiceRef,
      engine: engineServiceRef,
    },
    commands: runtimeServicesCommands,
    async init({ config, database, blobStore, sharedKeys, clock, ids, lifecycle, logger, systemAuth, runtimeJobs, engine }, env) {
      const settings = config.env.runtimeServices;
      env.addMigrations(runtimeServicesMigrations);
      const db = runtimeDb(database);
      const blobs = createBlockBlobs(db, blobStore, clock);
      const capabilities = createBlobUrlCapabilities(await loadUrlKey(sharedKeys, ids), clock);
      const auth = createRuntimeAuth(runtimeJobs);
      // Signed URLs point where the job's service URLs do: the public URL's origin.
      const baseUrl = (): string => new URL(lifecycle.publicUrl()).origin;
      const ttls = { uploadTtlSecs: UPLOAD_TTL_SECS, downloadTtlSecs: DOWNLOAD_TTL_SECS };
      const cache = createCacheService({ db, blobs, capabilities, clock, ids, baseUrl, settings: { maxEntryBytes: settings.cacheMaxBytes, ...ttls } });
      const artifacts = createArtifactService({ db, blobs, capabilities, clock, ids, baseUrl, settings: { retentionDays: settings.artifactRetentionDays, ...ttls } });
      const keys = createOidcKeyRing({ store: sharedKeys, clock, rotationMs: settings.oidcKeyRotationDays * DAY_MS });

      // Everything here is called from inside jobs: served wherever runners reach us.
      const group = (register: Parameters<typeof env.addRoutes>[0]['register']) => env.addRoutes({ auth: 'public', surfaces: RUNNER_SURFACES, register });
      group((app) => registerBlobRoutes(app, { blobs, capabilities, logger, writable: createBlobWriterCheck(db, runtimeJobs) }));
      group((app) => registerCacheTwirp(app, { auth, cache, logger }));
      group((app) => registerArtifactTwirp(app, { auth, artifacts, logger }));
      group((app) => registerCacheV1Routes(app, { auth, cache, logger }));
      group((app) => registerOidcRoutes(app, { auth, keys, clock, ids, issuer: () => lifecycle.publicUrl() }));

      // For people (TCP only): the run's artifacts with the system bearer, and the artifact URL
      // upload-artifact prints, which checks the bearer itself to say how to get in without one.
      const runArtifacts = createRunArtifacts({ db, blobs, clock, engine });
      env.addRoutes({ prefix: '/api/v1', auth: 'system', register: (app) => registerArtifactApiRoutes(app, { artifacts: runArtifacts }) });
      env.addRoutes({ auth: 'public', register: (app) => registerArtifactUrlRoute(app, { artifacts: runArtifacts, systemAuth }) });

      env.addWorker(
        createSweeper({
          db,
          blobs,
          clock,
          logger,
          cache: { maxBytesPerRepository: settings.cacheMaxBytes, maxUnusedMs: settings.cacheMaxAgeDays * DAY_MS, staleReservationMs: UPLOAD_TTL_SECS * 1000 },
          staleUploadMs: UPLOAD_TTL_SECS * 1000,
          ...(options.sweepEveryMs === undefined ? {} : { everyMs: options.sweepEveryMs }),
        }),
      );
    },
  });
}

export const plugin = createRuntimeServicesPlugin();
