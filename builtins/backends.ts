import type { BlobBackend, CredentialBackend, NotifierBackend, RemoteRepositoriesBackend, SnapshotBackend, StoreBackend } from '../core/kernel/cli/index.js';

/**
 * The backends that ship in the box, by the name plugins.toml's `[backends]` (or, for credential
 * stores, SVC_CREDENTIAL_STORE) selects them with. Every import is lazy: a backend that is not
 * selected is never loaded (pg and ioredis stay out of an embedded install's memory).
 */
export const storeBackends: Readonly<Record<string, () => Promise<StoreBackend>>> = {
  sqlite: async () => (await import('../backends/sqlite/index.js')).sqliteStore,
  postgres: async () => (await import('../backends/postgres/index.js')).postgresStore,
};

export const notifierBackends: Readonly<Record<string, () => Promise<NotifierBackend>>> = {
  'in-process': async () => (await import('../backends/sqlite/index.js')).inProcessNotifier,
  postgres: async () => (await import('../backends/postgres/index.js')).postgresNotifier,
  redis: async () => (await import('../backends/redis/index.js')).redisNotifier,
};

export const blobBackends: Readonly<Record<string, () => Promise<BlobBackend>>> = {
  filesystem: async () => (await import('../backends/fs-blobs/index.js')).filesystemBlobs,
  postgres: async () => (await import('../backends/postgres/index.js')).postgresBlobs,
};

export const snapshotBackends: Readonly<Record<string, () => Promise<SnapshotBackend>>> = {
  git: async () => (await import('../backends/git-snapshots/index.js')).gitSnapshots,
};

/** Remote repositories (the action mirror, then the forge): always opened, configured by SVC_* variables. */
export const remoteRepositoriesBackend = async (): Promise<RemoteRepositoriesBackend> => (await import('../backends/remote-repositories/index.js')).remoteRepositories;

/** Also what the CLI reads the stored system token and the cluster key with (cli/svc.ts). */
export const credentialBackends: Readonly<Record<string, () => Promise<CredentialBackend>>> = {
  file: async () => (await import('../backends/credentials/index.js')).fileCredentials,
  memory: async () => (await import('../backends/credentials/index.js')).memoryCredentials,
  os: async () => (await import('../backends/credentials/index.js')).osCredentials,
};
