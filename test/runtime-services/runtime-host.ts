/**
 * A started host (real HTTP on an ephemeral loopback port) with the engine, runner-protocol,
 * blobs and runtime-services plugins, on a manual clock that starts at the real time (the
 * toolkit clients compute retention from the real clock), and the services tests need taken
 * out by a small grabber plugin. Stopped after the test.
 */
import { test, type TestContext } from 'node:test';
import { engineServiceRef, reportingServiceRef, type Engine, type Reporting } from '../../core/engine/index.js';
import { defaultCatalog } from '../../builtins/index.js';
import { coreServices, createHost, createSilentLogger, definePlugin, type Host } from '../../core/kernel/index.js';
import type { BlobStore, BlobUrlSigner, Database, SharedKeys, SnapshotStore } from '../../core/ports/index.js';
import { createRuntimeServicesPlugin } from '../../plugins/runtime-services/index.js';
import { createHostEnv, TEST_SYSTEM_TOKEN } from '../support/host-env.js';
import { withPooledSigningKey } from '../support/pooled-signing-key.js';
import { ManualClock } from '../support/manual-clock.js';
import { onCleanup, postgresSchemaUrl, requireService } from '../support/services.js';
import type { RunnerHost } from '../runner-protocol/runner-host.js';

export type StoreKind = 'sqlite' | 'postgres';

const postgres = await requireService('postgres');

/** The stores every suite runs on; PostgreSQL is skipped (loudly) when not configured. */
export const STORES: readonly { readonly kind: StoreKind; readonly skip: string | false }[] = [
  { kind: 'sqlite', skip: false },
  { kind: 'postgres', skip: postgres.skip },
];

/**
 * For cases whose outcome is the wire's and the client's, the same on every store: a test on
 * SQLite only (each toolkit client run costs a process start of seconds). Cases whose answer
 * comes from the store's queries (lookups, ordering, uniqueness, isolation) use `test` on every
 * store.
 */
export function onSqliteOnly(kind: StoreKind): (name: string, fn: (t: TestContext) => Promise<void>) => void {
  return kind === 'sqlite' ? (name, fn) => void test(name, fn) : () => undefined;
}

export interface RuntimeHost extends RunnerHost {
  readonly database: Database;
  readonly blobStore: BlobStore;
  /** The kernel's `/_blobs` URL signer. */
  readonly blobSigner: BlobUrlSigner;
  readonly dataDir: string;
}

const GRABBER_ID = 'runtime-test-grabber';

export async function runtimeHost(t: TestContext, kind: StoreKind, env: Record<string, string> = {}): Promise<RuntimeHost> {
  // A schema of its own, unless the test shares one between hosts (two nodes: SVC_DATABASE_URL in `env`).
  const schema = kind === 'postgres' && env['SVC_DATABASE_URL'] === undefined ? postgresSchemaUrl(t, postgres.url ?? '') : undefined;
  const hostEnv = createHostEnv({ ...(schema === undefined ? {} : { SVC_DATABASE_URL: schema.url }), ...env });
  onCleanup(t, () => hostEnv.cleanup());
  hostEnv.writePlugins(['engine', 'runner-protocol', 'blobs', 'runtime-services', GRABBER_ID].map((id) => `[[plugin]]\nid = "${id}"\n`).join('\n'));
  let grabbed:
    | { engine: Engine; reporting: Reporting; sharedKeys: SharedKeys; snapshots: SnapshotStore; database: Database; blobStore: BlobStore; blobSigner: BlobUrlSigner }
    | undefined;
  const grabber = definePlugin({
    id: GRABBER_ID,
    apiVersion: 1,
    deps: {
      engine: engineServiceRef,
      reporting: reportingServiceRef,
      sharedKeys: coreServices.sharedKeys,
      snapshots: coreServices.snapshots,
      database: coreServices.database,
      blobStore: coreServices.blobStore,
      blobSigner: coreServices.blobSigner,
    },
    init: (deps) => void (grabbed = deps),
  });
  const clock = new ManualClock(Date.now());
  const host: Host = await createHost({
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
          // No background sweeps: tests run passes themselves (sweepRuntimeServices).
          'runtime-services': async () => ({ plugin: createRuntimeServicesPlugin({ sweepEveryMs: 24 * 60 * 60 * 1000 }) }),
        },
      },
      hostEnv.env,
    ),
  });
  onCleanup(t, () => host.stop());
  if (!grabbed) throw new Error('the grabber plugin was not initialised');
  const baseUrl = await host.start();
  return { host, clock, baseUrl, systemToken: TEST_SYSTEM_TOKEN, dataDir: hostEnv.env['SVC_DATA_DIR'] ?? '', ...grabbed };
}
