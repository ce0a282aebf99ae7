import { join } from 'node:path';
import type { TestContext } from 'node:test';
import { createPostgresNotifier, createPostgresStore } from '../../backends/postgres/index.js';
import { createInProcessNotifier, createSqliteStore } from '../../backends/sqlite/index.js';
import { createFilesystemBlobStore } from '../../backends/fs-blobs/index.js';
import { defaultCatalog } from '../../builtins/index.js';
import { coreServices, createHost, createSilentLogger, definePlugin, type Host } from '../../core/kernel/index.js';
import {
  createEngine,
  createReporting,
  engineMigrations,
  engineServiceRef,
  reportingServiceRef,
  type Engine,
  type EnvironmentRules,
  type Reporting,
  type SelectionPolicy,
} from '../../core/engine/index.js';
import type { BlobStore, Database, Leases, Migrator, Notifier } from '../../core/ports/index.js';
import { createHostEnv, type HostEnv } from './host-env.js';
import { ManualClock } from './manual-clock.js';
import { onCleanup, postgresSchemaUrl, requireService, tempDir } from './services.js';

export type BackendKind = 'sqlite' | 'postgres';

export interface EngineFixture {
  readonly engine: Engine;
  readonly clock: ManualClock;
  readonly database: Database;
  /** The store's migrator: for a plugin's tables beside the engine's (the secrets plugin's). */
  readonly migrator: Migrator;
  readonly notifier: Notifier;
  readonly leases: Leases;
  /** The engine's node id (`node-a`). */
  readonly nodeId: string;
  /** A filesystem blob store in the test's temp directory (log chunks). */
  readonly blobs: BlobStore;
  /** Runner reports (steps, logs, annotations) on the same store. */
  readonly reporting: Reporting;
  /** A second engine on the same store ("another node", `node-b` unless named); PostgreSQL only. */
  secondNode(nodeId?: string): Promise<Engine>;
}

const postgres = await requireService('postgres');

/** The backends every engine suite runs on; PostgreSQL is skipped (loudly) when not configured. */
export const ENGINE_BACKENDS: readonly { readonly kind: BackendKind; readonly skip: string | false }[] = [
  { kind: 'sqlite', skip: false },
  { kind: 'postgres', skip: postgres.skip },
];

/** A real store of the given kind with the engine's migrations applied, and an engine on it. */
export async function engineFixture(
  t: TestContext,
  kind: BackendKind,
  options: { readonly policies?: readonly SelectionPolicy[]; readonly environmentRules?: EnvironmentRules } = {},
): Promise<EngineFixture> {
  const clock = new ManualClock(Date.UTC(2030, 0, 1));
  const logger = createSilentLogger();
  const dataDir = await tempDir(t);
  const url = kind === 'postgres' ? postgresSchemaUrl(t, postgres.url ?? '').url : undefined;
  const context = { logger, clock, dataDir, ...(url ? { url } : {}) };
  const store = kind === 'postgres' ? await createPostgresStore(context) : await createSqliteStore(context);
  onCleanup(t, () => store.database.close());
  const report = await store.migrator.migrate('engine', engineMigrations);
  if (report.error) throw report.error;
  const makeNotifier = async (): Promise<Notifier> => {
    const notifier = kind === 'postgres' ? await createPostgresNotifier(context) : createInProcessNotifier(logger);
    onCleanup(t, () => notifier.close());
    return notifier;
  };
  const notifier = await makeNotifier();
  const serverUrl = () => 'http://127.0.0.1:9090';
  const policies = () => options.policies ?? [];
  const nodeId = 'node-a';
  const environmentRules = options.environmentRules ?? (() => undefined);
  const engine = createEngine({ database: store.database, notifier, clock, logger, nodeId, serverUrl, policies, environmentRules });
  const blobs = createFilesystemBlobStore(join(dataDir, 'blobs'), clock);
  const reporting = createReporting({ database: store.database, notifier, clock, blobs, logger });
  return {
    engine,
    clock,
    database: store.database,
    migrator: store.migrator,
    notifier,
    leases: store.leases,
    nodeId,
    blobs,
    reporting,
    async secondNode(otherId = 'node-b') {
      if (kind !== 'postgres') throw new Error('a second node needs the shared PostgreSQL store');
      const other = await createPostgresStore(context);
      onCleanup(t, () => other.database.close());
      return createEngine({ database: other.database, notifier: await makeNotifier(), clock, logger, nodeId: otherId, serverUrl, policies, environmentRules });
    },
  };
}

export interface EngineHost {
  readonly host: Host;
  readonly hostEnv: HostEnv;
  readonly engine: Engine;
  readonly reporting: Reporting;
  readonly notifier: Notifier;
  readonly database: Database;
  readonly clock: ManualClock;
  /** Authorization header for the native API (empty when the host generated its token). */
  readonly auth: { readonly authorization: string };
}

export interface EngineHostOptions {
  /** Added to (or overriding) the host environment. */
  readonly env?: Record<string, string>;
  /** Variables removed from it (e.g. SVC_SYSTEM_TOKEN, to have the host generate one). */
  readonly unset?: readonly string[];
}

/**
 * A host (SQLite, private data dir) with the `engine` plugin, and the engine's services taken
 * out by a small test plugin so a test can create and drive runs while it talks HTTP. Stopped
 * after the test (a test may stop it earlier).
 */
export async function engineHost(t: TestContext, options: EngineHostOptions = {}): Promise<EngineHost> {
  const hostEnv = createHostEnv(options.env);
  for (const name of options.unset ?? []) delete hostEnv.env[name];
  onCleanup(t, () => hostEnv.cleanup());
  hostEnv.writePlugins('[[plugin]]\nid = "engine"\n\n[[plugin]]\nid = "engine-test-grabber"\n');
  let grabbed: { engine: Engine; reporting: Reporting; notifier: Notifier; database: Database } | undefined;
  const grabber = definePlugin({
    id: 'engine-test-grabber',
    apiVersion: 1,
    deps: { engine: engineServiceRef, reporting: reportingServiceRef, notifier: coreServices.notifier, database: coreServices.database },
    init: (deps) => void (grabbed = deps),
  });
  const clock = new ManualClock(Date.UTC(2030, 0, 1));
  const host = await createHost({
    env: hostEnv.env,
    cwd: hostEnv.dir,
    logger: createSilentLogger(),
    clock,
    catalog: { ...defaultCatalog, plugins: { ...defaultCatalog.plugins, 'engine-test-grabber': async () => ({ plugin: grabber }) } },
  });
  onCleanup(t, () => host.stop());
  if (!grabbed) throw new Error('the engine plugin did not provide its services');
  const token = hostEnv.env.SVC_SYSTEM_TOKEN;
  return { host, hostEnv, clock, ...grabbed, auth: { authorization: token === undefined ? '' : `Bearer ${token}` } };
}
