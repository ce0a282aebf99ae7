import { coreServices, definePlugin, optional } from '../../core/kernel/index.js';
import { forgeAppsServiceRef, statusWarningsExtensionPoint } from '../../core/ports/index.js';
import { loadForgeApps } from './app-store.js';
import { createForgeApps } from './forge-apps.js';
import { forgeWarnings } from './forge-status.js';

export { JWT_BACKDATE_S, JWT_LIFETIME_S, parseAppKey, signAppJwt } from './app-key.js';
export { appEntryName, FORGE_APPS_INDEX, loadForgeApps, storeForgeApp, type LoadedApp, type StoredApp } from './app-store.js';
export { createForgeApps, TOKEN_REUSE_MARGIN_MS, type ForgeAppsOptions } from './forge-apps.js';
export { forgeWarnings } from './forge-status.js';

/**
 * svc's credentials on the forge (README.md): the GitHub Apps stored in the shared keys, loaded
 * at start (a key that does not parse stops the start, naming the App), and `SVC_FORGE_TOKEN`.
 * Provides `forgeAppsServiceRef` (App JWTs, narrowed installation tokens, the mint ledger,
 * revocation) and the `forge_unavailable` status condition. With no App and no forge configured
 * it provides a service with no Apps and adds nothing else.
 */
export const plugin = definePlugin({
  id: 'forge',
  apiVersion: 1,
  provides: [forgeAppsServiceRef],
  deps: {
    config: coreServices.config,
    sharedKeys: coreServices.sharedKeys,
    forgeClients: coreServices.forgeClients,
    clock: coreServices.clock,
    logger: coreServices.logger,
    statusWarnings: optional(statusWarningsExtensionPoint),
  },
  async init({ config, sharedKeys, forgeClients, clock, logger, statusWarnings }, env) {
    const apps = await loadForgeApps(sharedKeys);
    const client = forgeClients.forApi(config.env.forgeApiUrl);
    env.provideService(forgeAppsServiceRef, createForgeApps({ apps, client, clock, hasPat: config.env.forgeToken !== undefined }));
    if (apps.length === 0 && !config.env.forgeConfigured) return;
    logger.info(
      { forge: client.apiUrl, apps: apps.map((app) => app.appId), pat: config.env.forgeToken !== undefined, breaker: config.env.forgeBreaker },
      `forge at ${client.apiUrl}: ${apps.length} App(s)${config.env.forgeToken === undefined ? '' : ' and SVC_FORGE_TOKEN'}`,
    );
    statusWarnings?.addSource('forge', async () => forgeWarnings(forgeClients, clock.now()));
  },
});
