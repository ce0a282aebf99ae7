import { engineServiceRef } from '../../core/engine/index.js';
import { coreServices, definePlugin, RUNNER_SURFACES } from '../../core/kernel/index.js';
import { runtimeJobsServiceRef } from '../../core/ports/index.js';
import { API_PREFIX, registerArchiveRoutes } from './archive-routes.js';
import { checkoutTargets } from './checkout-target.js';
import { registerGitRoutes } from './git-routes.js';

/**
 * The checkout relay: a job fetches its run's commit (for a local run, the working-tree
 * snapshot in the snapshot store) from the control plane with its job token, as
 * actions/checkout does from the forge: git smart HTTP (upload-pack only) at
 * `<server_url>/<owner>/<repo>` and tarball/zipball downloads at `<api_url>/repos/...`.
 * Served on TCP and the runner socket. README.md has the routes, the auth and the choices.
 */
export const plugin = definePlugin({
  id: 'checkout-relay',
  apiVersion: 1,
  deps: {
    config: coreServices.config,
    snapshots: coreServices.snapshots,
    logger: coreServices.logger,
    engine: engineServiceRef,
    runtimeJobs: runtimeJobsServiceRef,
  },
  init({ config, snapshots, logger, engine, runtimeJobs }, env) {
    const resolve = checkoutTargets({ runtimeJobs, engine, snapshots, retentionSecs: config.env.snapshots.retentionSecs });
    // Each credential is the route's own (the job token), so both groups are public to the kernel.
    env.addRoutes({ auth: 'public', surfaces: RUNNER_SURFACES, register: (app) => registerGitRoutes(app, { resolve, snapshots, logger }) });
    env.addRoutes({
      prefix: API_PREFIX,
      auth: 'public',
      surfaces: RUNNER_SURFACES,
      serves:
        "a running job's own repository as a tarball or zipball, with the job's token (GET /api/v3/repos/{owner}/{repo}/tarball[/{ref}], zipball likewise: what actions/checkout downloads without git); a job checks out any other repository from its forge",
      register: (app) => registerArchiveRoutes(app, { resolve, snapshots }),
    });
  },
});
