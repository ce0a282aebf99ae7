import { setMaxListeners } from 'node:events';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import type { Clock, IdGenerator } from '../ports/index.js';
import { openBackends, type Backends } from './boot-backends.js';
import { selectBackends } from './backend-selection.js';
import type { Catalog } from './catalog.js';
import { isWildcardHost, listenUrl, type Env } from './config/env-config.js';
import { loadConfig, type SvcConfig } from './config/load-config.js';
import { ServiceContainer } from './container.js';
import { coreServices, type HostLifecycle } from './core-services.js';
import { registerReadiness, type HostState, type NamedReadinessCheck } from './host-routes.js';
import type { RouteEntry } from './http/route-table.js';
import { createSystemAuth } from './http/system-auth.js';
import { createListeners, type Listeners } from './listeners.js';
import { createRootLogger, type Logger } from './logger.js';
import { packageInfo } from './package-info.js';
import { initPlugins, type InitializedPlugins } from './plugin-init.js';
import { readPluginsFile } from './plugins-file.js';
import { resolveSystemToken } from './secrets-bootstrap.js';
import { randomIds, systemClock } from './system-clock.js';

export interface HostOptions {
  readonly env: Env;
  readonly cwd: string;
  readonly logger?: Logger;
  readonly clock?: Clock;
  readonly ids?: IdGenerator;
  /** The plugins and backends it can load: the built-ins (`builtins/index.ts`), or a test's variant of them. */
  readonly catalog: Catalog;
}

export interface Host {
  readonly config: SvcConfig;
  readonly logger: Logger;
  /** The HTTP server (SVC_LISTEN); tests use `app.inject()` without listening. */
  readonly app: FastifyInstance;
  /** The runner socket's server (SVC_RUNNER_SOCKET), which carries only the runner surface. */
  readonly runnerSocketApp: FastifyInstance | undefined;
  /** Every route `app` carries, with the credential its group declared (http/route-table.ts). */
  routes(): readonly RouteEntry[];
  readonly state: HostState;
  /** Starts workers in order, then listens on SVC_LISTEN (and SVC_RUNNER_SOCKET). Returns the base URL. */
  start(): Promise<string>;
  /** Drains: stops accepting, finishes in-flight requests, stops workers in reverse, closes backends. */
  stop(): Promise<void>;
}

/**
 * Boots the host: configuration, backends, plugins (ordered by their dependencies, each one's
 * migrations right after its init) and routes. Anything that fails stops the boot with an error
 * that names it, and what was opened is closed again.
 */
export async function createHost(options: HostOptions): Promise<Host> {
  const config = loadConfig({ env: options.env, cwd: options.cwd });
  const logger = options.logger ?? createRootLogger({ level: config.env.logLevel });
  for (const warning of config.env.warnings) logger.warn(warning);
  const clock = options.clock ?? systemClock;
  const ids = options.ids ?? randomIds;
  const catalog = options.catalog;
  const pluginsFile = readPluginsFile(config.env.pluginsFile ?? join(packageInfo().root, 'plugins.toml'));
  const selection = selectBackends(pluginsFile, config.env);

  const backends = await openBackends(config, selection, catalog, { logger, clock, ids });
  let state: HostState = 'booting';
  let baseUrl: string | undefined = config.env.publicUrl;
  const shutdown = new AbortController();
  // Every long poll and stream listens to this one signal: thousands of listeners are expected.
  setMaxListeners(0, shutdown.signal);
  const container = new ServiceContainer();
  let plugins: InitializedPlugins;
  let listeners: Listeners;
  try {
    const systemAuth = createSystemAuth(await resolveSystemToken(config.env.systemToken, { shared: backends.sharedKeys, local: backends.credentials }, ids, logger));
    const lifecycle: HostLifecycle = {
      shutdownSignal: shutdown.signal,
      publicUrl: () => baseUrl ?? listenUrl(config.env.listen.host, config.env.listen.port),
    };
    provideCoreServices(container, { config, logger, clock, ids, backends, systemAuth, lifecycle });
    plugins = await initPlugins({ sources: pluginsFile.plugins, catalog, container, migrator: backends.store.migrator, logger });
    logger.info(
      { store: backends.store.database.capabilities.dialectName, notifier: backends.notifier.kind, plugins: plugins.order },
      'plugins initialised',
    );
    listeners = createListeners({ logger: logger.child({ component: 'http' }), listen: config.env.listen, runnerSocket: config.env.runnerSocket, systemAuth, limits: config.env.http });
    const checks: NamedReadinessCheck[] = [{ name: 'store', check: () => backends.store.database.ping() }, ...plugins.readinessChecks];
    registerReadiness(listeners.tcp, () => state, checks, { runnerSocket: config.env.runnerSocket }, plugins.readinessNotes);
    for (const group of plugins.routes) await listeners.addRouteGroup(group);
    await listeners.ready();
  } catch (error) {
    await container.dispose();
    await backends.close();
    throw error;
  }

  const started: string[] = [];
  const stopWorkers = async () => {
    for (const worker of [...plugins.workers].reverse()) {
      if (!started.includes(worker.name)) continue;
      try {
        await worker.stop();
      } catch (error) {
        logger.error({ err: error, worker: worker.name }, 'worker failed to stop cleanly');
      }
    }
  };
  let stopping: Promise<void> | undefined;
  const stop = (): Promise<void> => {
    stopping ??= (async () => {
      state = 'draining';
      shutdown.abort();
      await listeners.close();
      await stopWorkers();
      await container.dispose();
      await backends.close();
      state = 'stopped';
      logger.info('stopped');
    })();
    return stopping;
  };

  return {
    config,
    logger,
    app: listeners.tcp,
    runnerSocketApp: listeners.runnerSocket,
    routes: () => listeners.routes(),
    get state() {
      return state;
    },
    async start() {
      state = 'starting';
      let port: number;
      try {
        await listeners.prepare();
        for (const worker of plugins.workers) {
          await worker.start();
          started.push(worker.name);
        }
        ({ port } = await listeners.listen());
      } catch (error) {
        logger.error({ err: error }, 'start failed; stopping what was started');
        await stop();
        throw error;
      }
      const listenHost = config.env.listen.host;
      const host = listenHost.includes(':') ? `[${listenHost}]` : listenHost;
      const reachable = listenUrl(listenHost, port);
      if (baseUrl === undefined && isWildcardHost(listenHost)) {
        logger.warn(
          { listen: `${host}:${port}`, publicUrl: reachable },
          `svc listens on every address, but SVC_PUBLIC_URL is not set: runners and jobs are told ${reachable}, which only this machine reaches; set SVC_PUBLIC_URL to the URL other machines use`,
        );
      }
      baseUrl ??= reachable;
      state = 'ready';
      const runnerSocket = config.env.runnerSocket === undefined ? {} : { runnerSocket: config.env.runnerSocket };
      logger.info({ listen: `${host}:${port}`, ...runnerSocket, publicUrl: baseUrl, version: packageInfo().version }, 'svc is ready');
      return reachable;
    },
    stop,
  };
}

function provideCoreServices(
  container: ServiceContainer,
  s: {
    config: SvcConfig;
    logger: Logger;
    clock: Clock;
    ids: IdGenerator;
    backends: Backends;
    systemAuth: ReturnType<typeof createSystemAuth>;
    lifecycle: HostLifecycle;
  },
): void {
  const owner = 'the kernel';
  container.provideRoot(coreServices.config, s.config, owner);
  container.provideRoot(coreServices.rootLogger, s.logger, owner);
  container.providePluginScoped(coreServices.logger, (pluginId) => s.logger.child({ plugin: pluginId }));
  container.provideRoot(coreServices.database, s.backends.store.database, owner);
  container.provideRoot(coreServices.leases, s.backends.store.leases, owner);
  container.provideRoot(coreServices.notifier, s.backends.notifier, owner);
  container.provideRoot(coreServices.blobStore, s.backends.blobs.store, owner);
  container.provideRoot(coreServices.blobSigner, s.backends.blobs.signer, owner);
  container.provideRoot(coreServices.credentialStore, s.backends.credentials, owner);
  container.provideRoot(coreServices.sharedKeys, s.backends.sharedKeys, owner);
  container.provideRoot(coreServices.snapshots, s.backends.snapshots, owner);
  container.provideRoot(coreServices.remoteRepositories, s.backends.remoteRepositories, owner);
  container.provideRoot(coreServices.forgeClients, s.backends.forgeClients, owner);
  container.provideRoot(coreServices.clock, s.clock, owner);
  container.provideRoot(coreServices.ids, s.ids, owner);
  container.provideRoot(coreServices.systemAuth, s.systemAuth, owner);
  container.provideRoot(coreServices.lifecycle, s.lifecycle, owner);
}
