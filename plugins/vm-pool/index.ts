import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { coreServices, definePlugin, readVersions } from '../../core/kernel/index.js';
import { nodeLivenessServiceRef, runnerProvisioningServiceRef, statusWarningsExtensionPoint } from '../../core/ports/index.js';
import { PROCESS_BACKEND_WARNING, selectBackend, type IsolationBackend, type IsolationKind } from './backends/index.js';
import { createPoolManager, recordedGuests, resolveRunnerCommand, waitUntilReachable, type BackoffSettings } from './manager/index.js';
import { poolNodeTag } from './node-tag.js';
import { poolReadinessNote, poolWarnings, registerPoolRoute, type PoolChoice } from './pool-report.js';
import { createNodeRuntimes, type NodeRuntimesOptions } from './runtimes/index.js';

export { createPoolManager, type PoolManager, type PoolManagerOptions, type PoolStatus } from './manager/index.js';
export type { BackendProbe, Guest, GuestExit, GuestLaunch, GuestLimits, IsolationBackend, IsolationKind } from './backends/index.js';

export interface VmPoolOptions {
  /** Replace built-in backends (tests): a backend, or the reason it is unavailable. */
  readonly backends?: Partial<Record<IsolationKind, () => Promise<IsolationBackend | string>>>;
  readonly backoff?: BackoffSettings;
  /** Replace the Node.js taken as svc's own runtime (tests: a server "on" another major). */
  readonly serverNode?: NodeRuntimesOptions['serverNode'];
}

/** How long the first guests wait for the runtimes' provisioning before they start without what is not there yet. */
const RUNTIMES_WAIT_MS = 60_000;

/**
 * The built-in pool (plugins/vm-pool/README.md): warm guests, each one ephemeral `svc-runner`
 * (JIT config, `--once`) for one job, behind an isolation backend (SVC_POOL_BACKEND). Runners
 * come from runner-protocol through the provisioning port; the state shows in
 * `GET /api/v1/pool` and, when something is wrong, in the status warnings.
 */
export function createVmPoolPlugin(options: VmPoolOptions = {}) {
  return definePlugin({
    id: 'vm-pool',
    apiVersion: 1,
    deps: {
      config: coreServices.config,
      logger: coreServices.logger,
      lifecycle: coreServices.lifecycle,
      provisioning: runnerProvisioningServiceRef,
      node: nodeLivenessServiceRef,
      statusWarnings: statusWarningsExtensionPoint,
    },
    async init({ config, logger, lifecycle, provisioning, node, statusWarnings }, env) {
      const knobs = config.env.pool;
      const rootDir = join(config.dataDir, 'pool');
      let choice: PoolChoice = { node: node.nodeId, manager: undefined, reason: 'SVC_POOL_BACKEND=off', fallback: undefined, unavailable: false, runtimes: undefined, toolCache: undefined };
      const selection = await selectBackend({
        choice: knobs.backend,
        network: knobs.network,
        runnerSocket: config.env.runnerSocket,
        dataDir: config.dataDir,
        logger,
        microvm: knobs.microvm,
        ...(options.backends === undefined ? {} : { backends: options.backends }),
      });
      if (knobs.backend === 'off') {
        logger.info('built-in pool is off (SVC_POOL_BACKEND=off): jobs wait for external runners');
      } else if (selection === undefined) {
        choice = { ...choice, reason: 'no isolation backend can run guests on this host', unavailable: true };
      } else {
        const runner = resolveRunnerCommand(knobs.runnerCommand);
        // Guests outlive a killed server (their jobs go on): this node's recorded guests are
        // adopted by the manager (or cleaned up when they are gone), and registrations named
        // after this node's guests without a record are a predecessor's leftovers. Guests of
        // other nodes (another tag, e.g. on a shared data directory or store) are left alone.
        // Only once the node id is this process's: a second process started with a live node's
        // id is refused here, before it could remove or adopt that node's guests.
        await node.registered();
        const guestPrefix = `svc-pool-${await poolNodeTag(rootDir, node.nodeId)}-`;
        const { records, removed, othersLeft } = await recordedGuests(rootDir, guestPrefix, selection.backend.kind);
        if (removed > 0) logger.info({ removed }, 'built-in pool: removed guest roots a previous server of this node left behind');
        if (othersLeft > 0) logger.info({ roots: othersLeft }, 'built-in pool: guest roots of other nodes in this data directory are left to them');
        const unregistered = await provisioning.removeNamed(guestPrefix, records.map((record) => record.runnerId));
        if (unregistered > 0) logger.info({ removed: unregistered }, 'built-in pool: removed runner registrations of guests a previous server left behind');
        logger.info({ node: node.nodeId, guestPrefix }, `built-in pool: node ${node.nodeId} (${config.node.source}) names its guests ${guestPrefix}…`);
        if (records.length > 0) logger.info({ guests: records.length }, 'built-in pool: guests a previous server left are checked for adoption');
        if (selection.fallback !== undefined) logger.warn({ backend: selection.backend.kind }, `built-in pool: ${selection.reason}`);
        else logger.info({ backend: selection.backend.kind }, `built-in pool: ${selection.reason}`);
        if (selection.backend.kind === 'process') logger.warn(`built-in pool: ${PROCESS_BACKEND_WARNING}`);
        logger.info(
          { backend: selection.backend.kind, warm: knobs.warm, max: knobs.max, labels: knobs.labels, runner: runner.source },
          `built-in pool: ${knobs.warm} warm guests, at most ${knobs.max}, labels ${knobs.labels.join(',')}`,
        );
        const versions = readVersions();
        const runtimes = createNodeRuntimes({
          dir: join(config.dataDir, 'runtimes'),
          versions: { node20: versions.node20Version, node24: versions.node24Version },
          dist: knobs.nodeDist,
          logger,
          ...(options.serverNode === undefined ? {} : { serverNode: options.serverNode }),
        });
        const toolCache = knobs.toolCache === 'off' ? undefined : (knobs.toolCache ?? join(config.dataDir, 'tool-cache'));
        if (toolCache !== undefined) await mkdir(toolCache, { recursive: true, mode: 0o700 });
        const manager = createPoolManager({
          backend: selection.backend,
          provisioning,
          logger,
          rootDir,
          guestPrefix,
          warm: knobs.warm,
          max: knobs.max,
          labels: knobs.labels,
          stopGraceMs: knobs.stopGraceSecs * 1000,
          network: knobs.network,
          runner,
          serverUrl: () => lifecycle.publicUrl(),
          runnerSocket: config.env.runnerSocket,
          serverReady: (signal) =>
            waitUntilReachable(() => lifecycle.publicUrl(), signal, (url) => logger.warn({ url }, `built-in pool: ${url} does not answer yet; guests are launched once it does (SVC_PUBLIC_URL must reach this server)`)),
          runtimes: () => runtimes.list(),
          runtimesReady: async (signal) => {
            const waited = await Promise.race([runtimes.provision(signal).then(() => true), delay(RUNTIMES_WAIT_MS, false, { signal }).catch(() => true)]);
            if (!waited) logger.warn(`built-in pool: the JavaScript runtimes are still being provisioned after ${RUNTIMES_WAIT_MS / 1000} s; guests start without them meanwhile`);
          },
          ...(toolCache === undefined ? {} : { toolCache }),
          adopt: records,
          ...(options.backoff === undefined ? {} : { backoff: options.backoff }),
        });
        choice = { node: node.nodeId, manager, reason: selection.reason, fallback: selection.fallback, unavailable: false, runtimes, toolCache };
        env.addWorker({
          name: 'guest-pool',
          start() {
            manager.start();
            // Guests wind their jobs down while the listeners drain, not after.
            lifecycle.shutdownSignal.addEventListener('abort', () => void manager.stop(), { once: true });
          },
          stop: () => manager.stop(),
        });
      }
      const reported = choice;
      statusWarnings.addSource('vm-pool', async () => poolWarnings(reported));
      env.addReadinessNote('pool', () => poolReadinessNote(reported));
      env.addRoutes({ prefix: '/api/v1', auth: 'system', register: (app) => registerPoolRoute(app, reported) });
    },
  });
}

export const plugin = createVmPoolPlugin();
