import { join } from 'node:path';
import { engineServiceRef } from '../../core/engine/index.js';
import { coreServices, definePlugin, optional, RUNNER_SURFACES } from '../../core/kernel/index.js';
import { forgeAppsServiceRef, runtimeJobsServiceRef } from '../../core/ports/index.js';
import { API_PREFIX, registerArchiveRoutes } from './archive-routes.js';
import { checkoutTargets } from './checkout-target.js';
import { appCredentials, patCredentials } from './forge-credentials.js';
import { forgeGitBase } from './forge-git-url.js';
import { createForgeMirror, type ForgeMirror } from './forge-mirror.js';
import { registerGitRoutes } from './git-routes.js';

/**
 * The checkout relay: a job fetches its run's commit (for a local run, the working-tree
 * snapshot in the snapshot store) from the control plane with its job token, as
 * actions/checkout does from the forge: git smart HTTP (upload-pack only) at
 * `<server_url>/<owner>/<repo>` and tarball/zipball downloads at `<api_url>/repos/...`. A forge
 * run's commit comes from the node's forge mirror (`<data dir>/forge-mirrors`), fetched with the
 * forge's credential (an installation token of the GitHub App covering the repository when the
 * forge plugin holds one, else `SVC_FORGE_TOKEN`), which jobs never see.
 * Served on TCP and the runner socket. README.md has the routes, the auth and the choices.
 */
export const plugin = definePlugin({
  id: 'checkout-relay',
  apiVersion: 1,
  deps: {
    config: coreServices.config,
    snapshots: coreServices.snapshots,
    logger: coreServices.logger,
    clock: coreServices.clock,
    engine: engineServiceRef,
    runtimeJobs: runtimeJobsServiceRef,
    // The forge plugin's Apps, when it is enabled: the mirror fetches with their installation tokens.
    forgeApps: optional(forgeAppsServiceRef),
  },
  init({ config, snapshots, logger, clock, engine, runtimeJobs, forgeApps }, env) {
    const forge = config.env;
    // A forge is configured (SVC_FORGE_API_URL, SVC_FORGE_TOKEN or SVC_FORGE_GIT_URL): forge runs check out from the mirror.
    const forgeMirror: ForgeMirror | undefined =
      forge.forgeConfigured || forge.forgeGitUrl !== undefined
        ? createForgeMirror({
            dir: join(config.dataDir, 'forge-mirrors'),
            gitBase: forgeGitBase(forge.forgeApiUrl, forge.forgeGitUrl),
            credentials: appCredentials(forgeApps, patCredentials(forge.forgeToken)),
            clock,
          })
        : undefined;
    const resolve = checkoutTargets({ runtimeJobs, engine, snapshots, retentionSecs: forge.snapshots.retentionSecs, forgeMirror });
    // Each credential is the route's own (the job token), so both groups are public to the kernel.
    env.addRoutes({ auth: 'public', surfaces: RUNNER_SURFACES, register: (app) => registerGitRoutes(app, { resolve, logger }) });
    env.addRoutes({
      prefix: API_PREFIX,
      auth: 'public',
      surfaces: RUNNER_SURFACES,
      serves:
        "a running job's own repository as a tarball or zipball, with the job's token (GET /api/v3/repos/{owner}/{repo}/tarball[/{ref}], zipball likewise: what actions/checkout downloads without git); a job checks out any other repository from its forge",
      register: (app) => registerArchiveRoutes(app, { resolve }),
    });
  },
});
