import { coreServices, definePlugin, packageInfo } from '../../core/kernel/index.js';
import {
  createEngine,
  createNodeRegistry,
  createReporting,
  engineMigrations,
  engineServiceRef,
  environmentRulesFrom,
  reportingServiceRef,
  selectionPoliciesExtensionPoint,
  type SelectionPolicy,
} from '../../core/engine/index.js';
import { nodeLivenessServiceRef } from '../../core/ports/index.js';
import { engineCommands } from './cli/index.js';
import { registerEngineRoutes } from './routes/index.js';
import { createNodeLease } from './node-lease.js';
import { createSchedulerWorker } from './scheduler-worker.js';

/**
 * The run engine as a plugin: provides the engine and runner reporting to other plugins, owns
 * the engine's tables, takes run-creation policies from other plugins, holds this node's
 * liveness lease (`node-lease` worker, nodeLivenessServiceRef), runs the `scheduler` worker,
 * serves runs, logs, the event stream, environment approvals and the nodes under /api/v1, and adds
 * `svc status`, `svc logs`, `svc rerun` and `svc approve`. Environment rules come from the
 * operator file (`[environment_rules]`).
 */
export const plugin = definePlugin({
  id: 'engine',
  apiVersion: 1,
  deps: {
    config: coreServices.config,
    database: coreServices.database,
    leases: coreServices.leases,
    notifier: coreServices.notifier,
    clock: coreServices.clock,
    logger: coreServices.logger,
    blobStore: coreServices.blobStore,
    lifecycle: coreServices.lifecycle,
  },
  provides: [engineServiceRef, reportingServiceRef, selectionPoliciesExtensionPoint, nodeLivenessServiceRef],
  commands: engineCommands,
  init({ config, database, leases, notifier, clock, logger, blobStore, lifecycle }, env) {
    // Policy plugins depend on the extension point, so they add their policies after this init.
    const policies: SelectionPolicy[] = [];
    env.provideExtensionPoint(selectionPoliciesExtensionPoint, { add: (policy) => void policies.push(policy) });
    const nodeId = config.node.id;
    const environmentRules = environmentRulesFrom(config.operator.environment_rules);
    const engine = createEngine({ database, notifier, clock, logger, nodeId, serverUrl: () => lifecycle.publicUrl(), policies: () => policies, environmentRules });
    const nodes = createNodeRegistry({ database, leases, clock });
    const nodeLease = createNodeLease({ registry: nodes, nodeId, version: packageInfo().version, logger, url: () => lifecycle.publicUrl() });
    const reporting = createReporting({ database, notifier, clock, blobs: blobStore, logger });
    env.provideService(engineServiceRef, engine);
    env.provideService(reportingServiceRef, reporting);
    env.provideService(nodeLivenessServiceRef, nodeLease.liveness);
    env.addMigrations(engineMigrations);
    // The lease first: the reconnect grace and the sweep act as this node.
    env.addWorker(nodeLease.worker);
    env.addWorker(createSchedulerWorker({ engine, notifier, logger }));
    env.addRoutes({
      prefix: '/api/v1',
      auth: 'system',
      register: (app) => registerEngineRoutes(app, { engine, reporting, notifier, clock, lifecycle, nodes, nodeId }),
    });
  },
});
