import { mkdir } from 'node:fs/promises';
import { tightenDataDir } from './data-dir-modes.js';
import type { BlobStore, BlobUrlSigner, Clock, CredentialStore, ForgeClients, IdGenerator, Notifier, RemoteRepositories, SharedKeys, SnapshotStore } from '../ports/index.js';
import type { Store } from './backend-module.js';
import type { BackendSelection } from './backend-selection.js';
import type { Catalog } from './catalog.js';
import type { SvcConfig } from './config/load-config.js';
import { ConfigError } from './errors.js';
import type { Logger } from './logger.js';
import { BLOB_SIGNING_KEY_NAME } from './secrets-bootstrap.js';
import { ensureSharedKey } from './shared-keys/ensure-shared-key.js';
import { openSharedKeys } from './shared-keys/open-shared-keys.js';

export interface Backends {
  readonly credentials: CredentialStore;
  /** Keys every node holds alike: the sealed table on a shared store, else `credentials` (shared-keys/). */
  readonly sharedKeys: SharedKeys;
  readonly store: Store;
  readonly notifier: Notifier;
  readonly blobs: { readonly store: BlobStore; readonly signer: BlobUrlSigner };
  readonly snapshots: SnapshotStore;
  readonly remoteRepositories: RemoteRepositories;
  /** One client and breaker per forge, shared by remote repositories and the forge plugin. */
  readonly forgeClients: ForgeClients;
  close(): Promise<void>;
}

function pick<T>(table: Readonly<Record<string, () => Promise<T>>>, id: string, what: string): () => Promise<T> {
  const factory = table[id];
  if (!factory) throw new ConfigError(`unknown ${what} backend '${id}' (known: ${Object.keys(table).join(', ')})`);
  return factory;
}

/** Opens the selected backends in dependency order; on failure closes what was opened. */
export async function openBackends(
  config: SvcConfig,
  selection: BackendSelection,
  catalog: Catalog,
  services: { readonly logger: Logger; readonly clock: Clock; readonly ids: IdGenerator },
): Promise<Backends> {
  const { logger, clock, ids } = services;
  await mkdir(config.dataDir, { recursive: true, mode: 0o700 });
  await tightenDataDir(config.dataDir, logger);
  const base = { clock, dataDir: config.dataDir };
  const closers: (() => Promise<void>)[] = [];
  try {
    const credentialBackend = await pick(catalog.credentials, config.credentialStore, 'credential store')();
    const credentials = await credentialBackend.create({
      ...base,
      logger: logger.child({ backend: `credentials:${config.credentialStore}` }),
    });
    const storeBackend = await pick(catalog.stores, selection.store.id, 'store')();
    const store = await storeBackend.create({ ...base, logger: logger.child({ backend: `store:${storeBackend.id}` }), ...urlOf(selection.store.url) });
    closers.push(() => store.database.close());
    const sharedKeys = await openSharedKeys({ store, credentials, clusterKeyFile: config.env.clusterKeyFile, clock, logger: logger.child({ component: 'shared-keys' }) });
    const notifierBackend = await pick(catalog.notifiers, selection.notifier.id, 'notifier')();
    const notifier = await notifierBackend.create({ ...base, logger: logger.child({ backend: `notifier:${notifierBackend.id}` }), ...urlOf(selection.notifier.url) });
    closers.push(() => notifier.close());
    const blobBackend = await pick(catalog.blobs, selection.blobs.id, 'blob')();
    const blobs = await blobBackend.create({
      ...base,
      logger: logger.child({ backend: `blobs:${blobBackend.id}` }),
      signingKey: await ensureSharedKey(sharedKeys, BLOB_SIGNING_KEY_NAME, () => ids.token(32)),
      store,
      ...(selection.blobs.directory === undefined ? {} : { directory: selection.blobs.directory }),
    });
    const snapshotBackend = await pick(catalog.snapshots, selection.snapshots.id, 'snapshot')();
    const sharedBlobs = selection.blobs.id === 'postgres' || selection.blobs.directory !== undefined;
    const snapshots = await snapshotBackend.create({
      ...base,
      logger: logger.child({ backend: `snapshots:${snapshotBackend.id}` }),
      ...(sharedBlobs ? { sharedBlobs: blobs.store } : {}),
    });
    const repositoriesBackend = await catalog.remoteRepositories();
    const { actionsMirrorDir, forgeConfigured, forgeApiUrl, forgeToken, forgeBreaker } = config.env;
    // Imported lazily: core/forge stands on the kernel (its errors), so a static import here would be a cycle.
    const { createForgeClients } = await import('../forge/index.js');
    const forgeClients = createForgeClients({ defaultApiUrl: forgeApiUrl, clock, breaker: forgeBreaker });
    const remoteRepositories = await repositoriesBackend.create({
      ...base,
      forgeClients,
      logger: logger.child({ backend: `remote-repositories:${repositoriesBackend.id}` }),
      settings: { actionsMirrorDir, forgeConfigured, forgeApiUrl, forgeToken },
    });
    return {
      credentials,
      sharedKeys,
      store,
      notifier,
      blobs,
      snapshots,
      remoteRepositories,
      forgeClients,
      close: () => closeAll(closers, logger),
    };
  } catch (error) {
    await closeAll(closers, logger);
    throw error;
  }
}

function urlOf(url: string | undefined): { url?: string } {
  return url === undefined ? {} : { url };
}

async function closeAll(closers: readonly (() => Promise<void>)[], logger: Logger): Promise<void> {
  for (const close of [...closers].reverse()) {
    try {
      await close();
    } catch (error) {
      logger.error({ err: error }, 'closing a backend failed');
    }
  }
}
