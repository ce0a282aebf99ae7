import type { BlobStore, BlobUrlSigner, Clock, CredentialStore, Database, ForgeClients, IdGenerator, Leases, Notifier, RemoteRepositories, SharedKeys, SnapshotStore } from '../ports/index.js';
import type { SvcConfig } from './config/load-config.js';
import type { Logger } from './logger.js';
import { createServiceRef } from './service-ref.js';

/** Verifies the native system bearer; constant-time. */
export interface SystemAuth {
  /** True when the `Authorization` header carries the system token (`Bearer` or `token`, any case). */
  verifyHeader(authorization: string | undefined): boolean;
}

/** State of the host, for readiness and for loops that must end on shutdown. */
export interface HostLifecycle {
  /** Aborted when draining starts: long polls and loops should return promptly. */
  readonly shutdownSignal: AbortSignal;
  /** Resolves the listening base URL once HTTP listens (SVC_PUBLIC_URL when set). */
  publicUrl(): string;
}

/** The services the kernel provides to every plugin. */
export const coreServices = {
  config: createServiceRef<SvcConfig>({ id: 'core.config' }),
  rootLogger: createServiceRef<Logger>({ id: 'core.rootLogger' }),
  /** A child logger named after the plugin. */
  logger: createServiceRef<Logger>({ id: 'core.logger', scope: 'plugin' }),
  database: createServiceRef<Database>({ id: 'core.database' }),
  leases: createServiceRef<Leases>({ id: 'core.leases' }),
  notifier: createServiceRef<Notifier>({ id: 'core.notifier' }),
  blobStore: createServiceRef<BlobStore>({ id: 'core.blobStore' }),
  blobSigner: createServiceRef<BlobUrlSigner>({ id: 'core.blobSigner' }),
  /** This node's own credentials. Keys every node must hold alike go to `sharedKeys`. */
  credentialStore: createServiceRef<CredentialStore>({ id: 'core.credentialStore' }),
  /** Signing keys and secrets shared by every node: sealed in the database on PostgreSQL, the credential store on SQLite. */
  sharedKeys: createServiceRef<SharedKeys>({ id: 'core.sharedKeys' }),
  /** Working-tree snapshots as commits (`svc run` uploads), served to runners for checkout. */
  snapshots: createServiceRef<SnapshotStore>({ id: 'core.snapshots' }),
  /** Other repositories runs take code from (remote actions, called workflows): the mirror, then the forge. */
  remoteRepositories: createServiceRef<RemoteRepositories>({ id: 'core.remoteRepositories' }),
  /** The forge's REST API, one client and circuit breaker per forge (core/forge); every call svc makes to a forge goes through it. */
  forgeClients: createServiceRef<ForgeClients>({ id: 'core.forgeClients' }),
  clock: createServiceRef<Clock>({ id: 'core.clock' }),
  ids: createServiceRef<IdGenerator>({ id: 'core.ids' }),
  systemAuth: createServiceRef<SystemAuth>({ id: 'core.systemAuth' }),
  lifecycle: createServiceRef<HostLifecycle>({ id: 'core.lifecycle' }),
} as const;

/** Ids of everything the kernel provides; no plugin may provide these. */
export const KERNEL_SERVICE_IDS: ReadonlySet<string> = new Set(Object.values(coreServices).map((ref) => ref.id));
