import type { BlobStore, BlobUrlSigner, Clock, CredentialStore, Database, ForgeClients, Leases, Migrator, Notifier, RemoteRepositories, SnapshotStore } from '../ports/index.js';
import type { Logger } from './logger.js';

/**
 * What a backend folder exports for the kernel's catalog. A backend implements ports; the kernel
 * picks one per kind from plugins.toml and the SVC_*_URL variables, and hands the instances to
 * plugins as core services.
 */
export interface BackendContext {
  readonly logger: Logger;
  readonly clock: Clock;
  /** The operator's data directory (absolute). */
  readonly dataDir: string;
  /** Connection URL when the backend is remote (SVC_DATABASE_URL, SVC_REDIS_URL). */
  readonly url?: string;
}

export interface Store {
  readonly database: Database;
  readonly migrator: Migrator;
  readonly leases: Leases;
}

export interface StoreBackend {
  readonly kind: 'store';
  readonly id: string;
  create(context: BackendContext): Promise<Store>;
}

export interface NotifierBackend {
  readonly kind: 'notifier';
  readonly id: string;
  create(context: BackendContext): Promise<Notifier>;
}

export interface BlobBackendInstance {
  readonly store: BlobStore;
  readonly signer: BlobUrlSigner;
}

export interface BlobBackendContext extends BackendContext {
  /** HMAC key for signed URLs, kept in the credential store. */
  readonly signingKey: string;
  /** The opened store, for a backend that keeps blobs in it (postgres); the kernel always passes it. */
  readonly store?: Store;
  /** The directory the filesystem backend keeps blobs in instead of `<dataDir>/blobs` (SVC_BLOB_DIR). */
  readonly directory?: string;
}

export interface BlobBackend {
  readonly kind: 'blobs';
  readonly id: string;
  create(context: BlobBackendContext): Promise<BlobBackendInstance>;
}

export interface CredentialBackend {
  readonly kind: 'credentials';
  readonly id: string;
  create(context: BackendContext): Promise<CredentialStore>;
}

export interface SnapshotBackendContext extends BackendContext {
  /**
   * The blob store when every node reaches it (PostgreSQL blobs, or SVC_BLOB_DIR): snapshots are
   * then kept there too, and the data dir holds each node's materialised cache. Absent on one node.
   */
  readonly sharedBlobs?: BlobStore;
}

/** Working-tree snapshots (`svc run` uploads), kept under the data directory (and in shared blobs). */
export interface SnapshotBackend {
  readonly kind: 'snapshots';
  readonly id: string;
  create(context: SnapshotBackendContext): Promise<SnapshotStore>;
}

export interface RemoteRepositoriesContext extends BackendContext {
  /** The forge's client and breaker (the forge source reads through `forApi()`). */
  readonly forgeClients: ForgeClients;
  /** Where they are: SVC_ACTIONS_MIRROR_DIR, SVC_FORGE_API_URL / SVC_FORGE_TOKEN (from the env config). */
  readonly settings: {
    readonly actionsMirrorDir: string | undefined;
    readonly forgeConfigured: boolean;
    readonly forgeApiUrl: string;
    readonly forgeToken: string | undefined;
  };
}

/**
 * Remote repositories (actions, called workflows): the local mirror, then the forge. Not chosen in
 * plugins.toml: there is one implementation, and the env config says which sources it has.
 */
export interface RemoteRepositoriesBackend {
  readonly kind: 'remote-repositories';
  readonly id: string;
  create(context: RemoteRepositoriesContext): Promise<RemoteRepositories>;
}
