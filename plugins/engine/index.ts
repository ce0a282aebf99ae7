import { coreServices, definePlugin } from '../../core/kernel/index.js';
import {
  createEngine,
  createReporting,
  engineMigrations,
  engineServiceRef,
  reportingServiceRef,
  selectionPoliciesExtensionPoint,
  type SelectionPolicy,
} from '../../core/engine/index.js';
import { engineCommands } from './cli/index.js';
import { registerEngineRoutes } from './routes/index.js';
import { createSchedulerWorker } from './scheduler-worker.js';

/**
 * The run engine as a plugin: provides the engine and runner reporting to other plugins, owns
 * the engine's tables, takes run-creation policies from other plugins, runs the `scheduler` worker, serves runs, logs and the event stream
 * under /api/v1, and adds `svc status` and `svc logs`.
 */
export const plugin = definePlugin({
  id: 'engine',
  apiVersion: 1,
  deps: {
    database: coreServices.database,
    notifier: coreServices.notifier,
    clock: coreServices.clock,
    logger: coreServices.logger,
    blobStore: coreServices.blobStore,
    lifecycle: coreServices.lifecycle,
  },
  provides: [engineServiceRef, reportingServiceRef, selectionPoliciesExtensionPoint],
  commands: engineCommands,
  init({ database, notifier, clock, logger, blobStore, lifecycle }, env) {
    // Policy plugins depend on the extension point, so they add their policies after this init.
    const policies: SelectionPolicy[] = [];
    env.provideExtensionPoint(selectionPoliciesExtensionPoint, { add: (policy) => void policies.push(policy) });
    const engine = createEngine({ database, notifier, clock, logger, serverUrl: () => lifecycle.publicUrl(), policies: () => policies });
    const reporting = createReporting({ database, notifier, clock, blobs: blobStore, logger });
    env.provideService(engineServiceRef, engine);
    env.provideService(reportingServiceRef, reporting);
    env.addMigrations(engineMigrations);
    env.addWorker(createSchedulerWorker({ engine, notifier, logger }));
    env.addRoutes({
      prefix: '/api/v1',
      auth: 'system',
      register: (app) => registerEngineRoutes(app, { engine, reporting, notifier, clock, lifecycle }),
    });
  },
});
