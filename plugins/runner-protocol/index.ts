import { coreServices, definePlugin, readVersions } from '../../core/kernel/index.js';
import { authenticateCaller, registerAgentRoutes, registerPoolRoutes } from './agents/index.js';
import { registerTokenRoute } from './auth/index.js';
import { registerConnectionDataRoute, registerJitRoute, registerRegistrationRoute } from './registration/index.js';
import { createRunnerProtocolServices } from './services.js';
import { runnerProtocolMigrations } from './store/index.js';
import { installVssErrorHandler } from './vss/index.js';

export { createRunnerProtocolServices, type RunnerProtocolServices, type ServiceInputs } from './services.js';
export { requireRunnerToken, runnerOf, type RunnerAuth } from './auth/index.js';
export { runnerProtocolMigrations } from './store/index.js';

/**
 * The runner boundary: lets the official runner (and svc-runner) register over the runner's own
 * protocol. Registration (`/api/v3/actions/runner-registration`), the location service, pools and
 * agents under `/_apis`, the OAuth token endpoint, and JIT configs under `/api/v1`.
 * Sessions, messages and the broker build on `requireRunnerToken` (auth/) and `runnerAuth`.
 */
export const plugin = definePlugin({
  id: 'runner-protocol',
  apiVersion: 1,
  deps: {
    config: coreServices.config,
    database: coreServices.database,
    clock: coreServices.clock,
    ids: coreServices.ids,
    credentialStore: coreServices.credentialStore,
    systemAuth: coreServices.systemAuth,
  },
  async init({ config, database, clock, ids, credentialStore, systemAuth }, env) {
    const services = await createRunnerProtocolServices({
      database,
      clock,
      ids,
      credentialStore,
      systemAuth,
      policy: config.env.registrationPolicy,
      publicUrl: config.env.publicUrl,
      runnerVersion: readVersions().runnerVersion,
    });
    env.addMigrations(runnerProtocolMigrations);

    env.addRoutes({ auth: 'public', register: (app) => registerRegistrationRoute(app, services) });
    env.addRoutes({ auth: 'public', register: (app) => registerTokenRoute(app, services) });
    env.addRoutes({
      auth: 'public',
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
  },
});
