import { coreServices, definePlugin, packageInfo } from '../../core/kernel/index.js';
import { statusWarningsExtensionPoint, type StatusWarningSource } from '../../core/ports/index.js';
import { registerStatusRoute } from './status-route.js';

/** The native management API under /api/v1 (system bearer). Other plugins add warning sources. */
export const plugin = definePlugin({
  id: 'management-api',
  apiVersion: 1,
  deps: {
    logger: coreServices.logger,
    clock: coreServices.clock,
    database: coreServices.database,
    notifier: coreServices.notifier,
  },
  provides: [statusWarningsExtensionPoint],
  init({ logger, clock, database, notifier }, env) {
    const sources = new Map<string, StatusWarningSource>();
    env.provideExtensionPoint(statusWarningsExtensionPoint, {
      addSource(name, source) {
        if (sources.has(name)) throw new Error(`status warning source '${name}' is added twice`);
        sources.set(name, source);
      },
    });
    const info = {
      version: packageInfo().version,
      startedAt: clock.now(),
      store: database.capabilities.dialectName,
      notifier: notifier.kind,
      now: () => clock.now(),
    };
    env.addRoutes({ prefix: '/api/v1', auth: 'system', register: (app) => registerStatusRoute(app, info, sources, logger) });
  },
});
