import { coreServices, definePlugin, optional, readVersions, RUNNER_SURFACES } from '../../core/kernel/index.js';
import { engineServiceRef, reportingServiceRef } from '../../core/engine/index.js';
import { authenticateCaller, registerAgentRoutes, registerPoolRoutes } from './agents/index.js';
import { createJobAttempts, registerTokenRoute } from './auth/index.js';
import { registerBrokerRoutes } from './broker/index.js';
import { registerRunServiceRoutes } from './run-service/index.js';
import { registerConnectionDataRoute, registerJitRoute, registerRegistrationRoute, registerRunnerAdminRoutes } from './registration/index.js';
import { createRunnerProtocolServices } from './services.js';
import { createRuntimeJobs } from './runtime-jobs.js';
import { jobValuesServiceRef, runnerProvisioningServiceRef, runtimeJobsServiceRef } from '../../core/ports/index.js';
import { createRunnerProvisioning } from './runner-provisioning.js';
import { runnerProtocolMigrations } from './store/index.js';
import { createLegacyFlow } from './messages/index.js';
import { legacyFlowTimings, type LegacyFlowTimings } from './sessions/index.js';
import { installVssErrorHandler } from './vss/index.js';
import { createActionTickets, registerActionDownloadRoutes } from './action-download/index.js';
import { registerWorkerRoutes, workerApiMigrations } from './worker-api/index.js';
import { createResultsService, resultsMigrations } from './results/index.js';

export { createRunnerProtocolServices, type RunnerProtocolServices, type ServiceInputs } from './services.js';
export { requireRunnerToken, runnerOf, type RunnerAuth } from './auth/index.js';
export { runnerProtocolMigrations } from './store/index.js';

export interface RunnerProtocolOptions {
  /** Durations of the legacy session flow (poll hold, leases, ...); tests shorten them. */
  readonly timings?: Partial<LegacyFlowTimings>;
}

/**
 * The runner boundary: lets the official runner (and svc-runner) register over the runner's own
 * protocol. Registration (`/api/v3/actions/runner-registration`), the location service, pools and
 * agents under `/_apis`, the OAuth token endpoint, and JIT configs under `/api/v1`; the listener's
 * legacy flow (sessions, the message long poll, job requests) and the Worker's reports. Built by a
 * factory so tests can pass options (the kernel loads `plugin`, made with the defaults).
 */
export function createRunnerProtocolPlugin(options: RunnerProtocolOptions = {}) {
  return definePlugin({
    id: 'runner-protocol',
    apiVersion: 1,
    // Job tokens and job facts for the services actions call (runtime-services): core/ports/runtime-jobs.ts.
    // Ephemeral JIT runners for the built-in pool (vm-pool): core/ports/runner-provisioning.ts.
    provides: [runtimeJobsServiceRef, runnerProvisioningServiceRef],
    deps: {
      config: coreServices.config,
      database: coreServices.database,
      clock: coreServices.clock,
      ids: coreServices.ids,
      sharedKeys: coreServices.sharedKeys,
      systemAuth: coreServices.systemAuth,
      blobStore: coreServices.blobStore,
      blobSigner: coreServices.blobSigner,
      snapshots: coreServices.snapshots,
      remoteRepositories: coreServices.remoteRepositories,
      engine: engineServiceRef,
      reporting: reportingServiceRef,
      notifier: coreServices.notifier,
      lifecycle: coreServices.lifecycle,
      logger: coreServices.logger,
      // Secrets and vars for job messages (plugins/secrets); without it jobs get none.
      jobValues: optional(jobValuesServiceRef),
    },
    async init({ config, database, clock, ids, sharedKeys, systemAuth, blobStore, blobSigner, snapshots, remoteRepositories, engine, reporting, notifier, lifecycle, logger, jobValues }, env) {
      const services = await createRunnerProtocolServices({
        database,
        engine,
        clock,
        ids,
        sharedKeys,
        systemAuth,
        policy: config.env.registrationPolicy,
        publicUrl: config.env.publicUrl,
        runnerVersion: readVersions().runnerVersion,
        runnerFlow: config.env.runnerFlow,
        listenerUrl: () => lifecycle.publicUrl(),
      });
      env.provideService(runtimeJobsServiceRef, createRuntimeJobs({ engine, jobTokens: services.jobTokens, publicUrl: () => lifecycle.publicUrl(), attempts: createJobAttempts(engine), tokenCeiling: config.operator.token_permissions_ceiling }));
      // One append-only list, in name order: store/'s migrations, the Worker's (worker-api/), the results service's (results/).
      env.addMigrations([...runnerProtocolMigrations, ...workerApiMigrations, ...resultsMigrations].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0)));

      // Every group a runner calls is served on TCP and on the runner socket (SVC_RUNNER_SOCKET).
      env.addRoutes({
        auth: 'public',
        surfaces: RUNNER_SURFACES,
        serves: 'runner registration for config.sh (POST /api/v3/actions/runner-registration)',
        register: (app) => registerRegistrationRoute(app, services),
      });
      env.addRoutes({
        auth: 'public',
        surfaces: RUNNER_SURFACES,
        serves: "config.sh's runner-admin registration (POST /api/v3/actions/runners/register, and the runner groups and runners of a repository, organisation or enterprise)",
        register: (app) => registerRunnerAdminRoutes(app, services),
      });
      env.addRoutes({ auth: 'public', surfaces: RUNNER_SURFACES, register: (app) => registerTokenRoute(app, services) });
      env.addRoutes({
        auth: 'public',
        surfaces: RUNNER_SURFACES,
        async register(app) {
          installVssErrorHandler(app);
          registerConnectionDataRoute(app, services);
          await app.register(async (authenticated) => {
            authenticated.addHook('onRequest', authenticateCaller(services));
            registerPoolRoutes(authenticated, services);
            registerAgentRoutes(authenticated, services);
          });
        },
      });
      env.addRoutes({ prefix: '/api/v1', auth: 'system', register: (app) => registerJitRoute(app, services) });
      // The Worker's reports during a job (job access token): timeline, logs, feed, attachments, JobCompleted.
      env.addRoutes({
        auth: 'public',
        surfaces: RUNNER_SURFACES,
        register: (app) =>
          registerWorkerRoutes(app, { engine, reporting, database, blobs: blobStore, clock, jobTokens: services.jobTokens, jobRecordGraceMs: legacyFlowTimings(options.timings).jobRecordGraceMs }),
      });
      // Action download info (job access token), legacy and run-service wires: tickets for the
      // remote actions the job declares, from the mirror, then the forge.
      const tickets = createActionTickets({
        repositories: remoteRepositories,
        blobs: blobStore,
        signer: blobSigner,
        baseUrl: () => lifecycle.publicUrl(),
      });
      env.addRoutes({
        auth: 'public',
        surfaces: RUNNER_SURFACES,
        register: (app) => registerActionDownloadRoutes(app, { engine, snapshots, jobTokens: services.jobTokens, tickets, serverUrl: () => lifecycle.publicUrl() }),
      });
      // The listener's legacy flow (runner token): sessions, the message long poll, job requests.
      const legacy = createLegacyFlow({
        ...services,
        database,
        engine,
        notifier,
        clock,
        ids,
        logger,
        shutdownSignal: lifecycle.shutdownSignal,
        publicUrl: () => lifecycle.publicUrl(),
        ...(options.timings === undefined ? {} : { timings: options.timings }),
        migrateToBroker: config.env.runnerFlow === 'broker',
        tokenCeiling: config.operator.token_permissions_ceiling,
        ...(jobValues === undefined ? {} : { jobValues }),
      });
      env.addRoutes({ auth: 'public', surfaces: RUNNER_SURFACES, register: (app) => legacy.registerRoutes(app) });
      env.provideService(
        runnerProvisioningServiceRef,
        createRunnerProvisioning({ provisioner: services.provisioner, agents: services.agents, requests: legacy.deps.requests, base: () => lifecycle.publicUrl(), nodeId: config.node.id }),
      );
      // The broker flow (§2.5-§2.8) on the same stores and long poll: always served, so a runner
      // configured for it keeps working whatever SVC_RUNNER_FLOW says now.
      // The results service (§4.6, run-service mode): step updates, logs and summaries over Twirp and signed URLs.
      const results = createResultsService({ engine, reporting, database, blobs: blobStore, signer: blobSigner, clock, ids, jobTokens: services.jobTokens, logger, baseUrl: () => lifecycle.publicUrl() });
      env.addRoutes({ auth: 'public', surfaces: RUNNER_SURFACES, register: (app) => results.register(app) });
      const flowDeps = { ...legacy.deps, ids, runnerAuth: services.runnerAuth, results: results.jobResults };
      env.addRoutes({ auth: 'public', surfaces: RUNNER_SURFACES, register: (app) => registerBrokerRoutes(app, flowDeps) });
      env.addRoutes({ auth: 'public', surfaces: RUNNER_SURFACES, register: (app) => registerRunServiceRoutes(app, flowDeps) });
      env.addWorker(legacy.sweeper);
    },
  });
}

export const plugin = createRunnerProtocolPlugin();
