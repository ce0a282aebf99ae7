import { acceptsCredential, installTwirpErrorHandler, TwirpError } from '../../../core/kernel/index.js';
import type { FastifyInstance } from 'fastify';
import type { Engine, Reporting } from '../../../core/engine/index.js';
import type { Logger } from '../../../core/kernel/index.js';
import { JOB_TOKEN_CREDENTIAL, type BlobStore, type BlobUrlSigner, type Clock, type Database, type IdGenerator } from '../../../core/ports/index.js';
import { createJobAttempts, type JobTokens } from '../auth/index.js';
import { createAttachmentsStore, createLogsStore, workerDb } from '../worker-api/index.js';
import { createJobResults, type JobResults } from './job-results.js';
import { RECEIVER_SERVICE, registerReceiverRoutes } from './receiver-routes.js';
import { resultsDb } from './results-tables.js';
import { requireResultsToken } from './results-token.js';
import { registerStepUpdateRoute, STEP_UPDATE_SERVICE } from './step-update-route.js';
import { createStepsStore } from './steps-store.js';
import { createLanding } from './upload-landing.js';
import { registerUploadRoute } from './upload-route.js';
import { createUploadUrls } from './upload-urls.js';
import { createUploadsStore } from './uploads-store.js';

export interface ResultsServiceDeps {
  readonly engine: Engine;
  readonly reporting: Reporting;
  readonly database: Database;
  readonly blobs: BlobStore;
  readonly signer: BlobUrlSigner;
  readonly clock: Clock;
  readonly ids: IdGenerator;
  readonly jobTokens: JobTokens;
  readonly logger: Logger;
  /** The server's public base URL; signed upload URLs are absolute with it. */
  readonly baseUrl: () => string;
  /** Lifetime of signed upload URLs (tests shorten it); default UPLOAD_URL_TTL_SECONDS. */
  readonly uploadUrlTtlSeconds?: number;
}

export interface ResultsService {
  /** What `completejob` reports besides its conclusion (the run service calls it). */
  readonly jobResults: JobResults;
  /** The Twirp routes under `/twirp/` and the signed upload route; register in a context of its own. */
  register(app: FastifyInstance): Promise<void>;
}

/**
 * The results service (§4.6): how a Worker in run-service mode reports steps, logs and step
 * summaries. Its stores share the legacy Worker's tables where the legacy flow keeps the same
 * things (log pages, attachments), so both flows land in one place.
 */
export function createResultsService(deps: ResultsServiceDeps): ResultsService {
  const db = resultsDb(deps.database);
  const legacy = workerDb(deps.database);
  const steps = createStepsStore(db, deps.clock);
  const uploads = createUploadsStore(db, deps.clock, deps.ids, deps.database.capabilities.rowLocks);
  const urls = createUploadUrls(deps.signer, deps.baseUrl, deps.uploadUrlTtlSeconds);
  const landing = createLanding({
    uploads,
    logs: createLogsStore(legacy, deps.clock),
    attachments: createAttachmentsStore(legacy, deps.blobs, deps.clock),
    reporting: deps.reporting,
    blobs: deps.blobs,
    logger: deps.logger,
  });
  return {
    jobResults: createJobResults({ db, reporting: deps.reporting, clock: deps.clock, logger: deps.logger }),
    async register(app) {
      await app.register(async (twirp) => {
        installTwirpErrorHandler(twirp);
        await twirp.register(async (job) => {
          acceptsCredential(job, JOB_TOKEN_CREDENTIAL);
          job.addHook('onRequest', requireResultsToken(deps.jobTokens));
          registerReceiverRoutes(job, { engine: deps.engine, steps, uploads, urls, landing, logger: deps.logger });
          registerStepUpdateRoute(job, { engine: deps.engine, reporting: deps.reporting, steps });
        });
        // Twirp answers a method it does not have (or a verb other than POST) with `bad_route`.
        for (const service of [RECEIVER_SERVICE, STEP_UPDATE_SERVICE]) {
          twirp.all(`/twirp/${service}/*`, async (request) => {
            throw new TwirpError('bad_route', `no such Twirp method: ${request.method} ${request.url.split('?')[0] ?? ''} (methods are POSTed)`);
          });
        }
      });
      await app.register(async (blobs) =>
        registerUploadRoute(blobs, {
          uploads,
          attempts: createJobAttempts(deps.engine),
          urls,
          blobs: deps.blobs,
          ids: deps.ids,
          // The diagnostic logs have no metadata call: they are done when their one PUT is.
          onWhole: async (upload) => (upload.kind === 'diag-logs' ? landing.diagnostics(upload) : undefined),
        }),
      );
    },
  };
}
