import type { TestContext } from 'node:test';
import { engineServiceRef, reportingServiceRef, type Engine, type Reporting } from '../../core/engine/index.js';
import { defaultCatalog } from '../../builtins/index.js';
import { coreServices, createHost, createSilentLogger, definePlugin, type Host } from '../../core/kernel/index.js';
import type { BlobStore, Database, SharedKeys, SnapshotStore } from '../../core/ports/index.js';
import { createHostEnv, TEST_SYSTEM_TOKEN } from '../support/host-env.js';
import { withPooledSigningKey } from '../support/pooled-signing-key.js';
import { ManualClock } from '../support/manual-clock.js';
import { onCleanup, postgresSchemaUrl, requireService } from '../support/services.js';
import { createRunnerProtocolPlugin, type RunnerProtocolOptions } from '../../plugins/runner-protocol/index.js';

export type StoreKind = 'sqlite' | 'postgres';

const postgres = await requireService('postgres');

/** The stores every registration suite runs on; PostgreSQL is skipped (loudly) when not configured. */
export const RUNNER_BACKENDS: readonly { readonly kind: StoreKind; readonly skip: string | false }[] = [
  { kind: 'sqlite', skip: false },
  { kind: 'postgres', skip: postgres.skip },
];

export interface RunnerHost {
  readonly host: Host;
  readonly clock: ManualClock;
  /** `http://127.0.0.1:<port>`: what a runner is configured with (plus `/<owner>/<repo>`). */
  readonly baseUrl: string;
  readonly systemToken: string;
  /** The engine the runner-protocol plugin reports to (create runs, claim jobs, read results). */
  readonly engine: Engine;
  readonly reporting: Reporting;
  /** The host's shared keys (they hold the plugin's signing key: `loadSigningKey` reads the same key). */
  readonly sharedKeys: SharedKeys;
  /** The host's snapshot store (runs of `svc run` uploads are commits in it). */
  readonly snapshots: SnapshotStore;
  /** The host's blob store (the data dir's with SQLite, PostgreSQL's with PostgreSQL). */
  readonly blobStore: BlobStore;
  /** The host's store, for tests that look at what it keeps at rest. */
  readonly database: Database;
}

export interface RunnerHostOptions {
  readonly kind?: StoreKind;
  readonly env?: Record<string, string>;
  /** Options of the runner-protocol plugin (e.g. a short poll hold); default: the plugin as the kernel loads it. */
  readonly plugin?: RunnerProtocolOptions;
  /** More plugins to load by id (e.g. `blobs`, to download signed URLs). */
  readonly plugins?: readonly string[];
}

const GRABBER_ID = 'runner-test-grabber';

/**
 * A started host (real HTTP on an ephemeral loopback port) with the `engine` and
 * `runner-protocol` plugins, on a manual clock the scripted runner signs its assertions with,
 * and the engine's services taken out by a small test plugin. Stopped after the test.
 */
export async function runnerHost(t: TestContext, options: RunnerHostOptions = {}): Promise<RunnerHost> {
  const schema = options.kind === 'postgres' ? postgresSchemaUrl(t, postgres.url ?? '') : undefined;
  const database = schema === undefined ? {} : { SVC_DATABASE_URL: schema.url };
  const hostEnv = createHostEnv({ ...database, ...options.env });
  onCleanup(t, () => hostEnv.cleanup());
  const extra = (options.plugins ?? []).map((id) => `[[plugin]]\nid = "${id}"\n\n`).join('');
  hostEnv.writePlugins(`[[plugin]]\nid = "engine"\n\n[[plugin]]\nid = "runner-protocol"\n\n${extra}[[plugin]]\nid = "${GRABBER_ID}"\n`);
  let grabbed: { engine: Engine; reporting: Reporting; sharedKeys: SharedKeys; snapshots: SnapshotStore; blobStore: BlobStore; database: Database } | undefined;
  const grabber = definePlugin({
    id: GRABBER_ID,
    apiVersion: 1,
    deps: {
      engine: engineServiceRef,
      reporting: reportingServiceRef,
      sharedKeys: coreServices.sharedKeys,
      snapshots: coreServices.snapshots,
      blobStore: coreServices.blobStore,
      database: coreServices.database,
    },
    init: (deps) => void (grabbed = deps),
  });
  const clock = new ManualClock(Date.UTC(2030, 0, 1));
  const boot = () =>
    createHost({
      env: hostEnv.env,
      cwd: hostEnv.dir,
      logger: createSilentLogger(),
      clock,
      catalog: withPooledSigningKey(
        {
          ...defaultCatalog,
          plugins: {
            ...defaultCatalog.plugins,
            [GRABBER_ID]: async () => ({ plugin: grabber }),
            ...(options.plugin === undefined ? {} : { 'runner-protocol': async () => ({ plugin: createRunnerProtocolPlugin(options.plugin) }) }),
          },
        },
        hostEnv.env,
      ),
    });
  const host = await boot();
  onCleanup(t, () => host.stop());
  if (!grabbed) throw new Error('the engine plugin did not provide its services');
  const baseUrl = await host.start();
  return { host, clock, baseUrl, systemToken: TEST_SYSTEM_TOKEN, ...grabbed };
}
