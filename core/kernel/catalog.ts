import type { BlobBackend, CredentialBackend, NotifierBackend, RemoteRepositoriesBackend, SnapshotBackend, StoreBackend } from './backend-module.js';
import type { CommandDefinition } from './command.js';
import type { ModuleImporter } from './plugin-loader.js';

/**
 * What ships in the box. The only place the kernel names plugins and backends, and only as lazy
 * imports: a backend that is not selected is never loaded (pg and ioredis stay out of an
 * embedded install's memory).
 */
export const builtinPlugins: Readonly<Record<string, ModuleImporter>> = {
  'management-api': () => import('../../plugins/management-api/index.js'),
  blobs: () => import('../../plugins/blobs/index.js'),
  engine: () => import('../../plugins/engine/index.js'),
  'local-runs': () => import('../../plugins/local-runs/index.js'),
  'runner-protocol': () => import('../../plugins/runner-protocol/index.js'),
  'runtime-services': () => import('../../plugins/runtime-services/index.js'),
  'vm-pool': () => import('../../plugins/vm-pool/index.js'),
  'checkout-relay': () => import('../../plugins/checkout-relay/index.js'),
  secrets: () => import('../../plugins/secrets/index.js'),
};

/**
 * The `svc` subcommands of the built-in plugins that have some, from each one's CLI face
 * (`plugins/<id>/cli/index.ts`, the list its definition's `commands` holds too), so the CLI
 * lists and runs them without loading the plugins' server side. No entry: no commands.
 */
export const builtinPluginCommands: Readonly<Record<string, () => Promise<readonly CommandDefinition[]>>> = {
  engine: async () => (await import('../../plugins/engine/cli/index.js')).engineCommands,
  'local-runs': async () => (await import('../../plugins/local-runs/cli/index.js')).localRunsCommands,
  'runtime-services': async () => (await import('../../plugins/runtime-services/cli/index.js')).runtimeServicesCommands,
  secrets: async () => (await import('../../plugins/secrets/cli/index.js')).secretsCommands,
};

export const storeBackends: Readonly<Record<string, () => Promise<StoreBackend>>> = {
  sqlite: async () => (await import('../../backends/sqlite/index.js')).sqliteStore,
  postgres: async () => (await import('../../backends/postgres/index.js')).postgresStore,
};

export const notifierBackends: Readonly<Record<string, () => Promise<NotifierBackend>>> = {
  'in-process': async () => (await import('../../backends/sqlite/index.js')).inProcessNotifier,
  postgres: async () => (await import('../../backends/postgres/index.js')).postgresNotifier,
  redis: async () => (await import('../../backends/redis/index.js')).redisNotifier,
};

export const blobBackends: Readonly<Record<string, () => Promise<BlobBackend>>> = {
  filesystem: async () => (await import('../../backends/fs-blobs/index.js')).filesystemBlobs,
  postgres: async () => (await import('../../backends/postgres/index.js')).postgresBlobs,
};

export const snapshotBackends: Readonly<Record<string, () => Promise<SnapshotBackend>>> = {
  git: async () => (await import('../../backends/git-snapshots/index.js')).gitSnapshots,
};

/** Remote repositories (the action mirror, then the forge): always opened, configured by SVC_* variables. */
export const remoteRepositoriesBackend = async (): Promise<RemoteRepositoriesBackend> => (await import('../../backends/remote-repositories/index.js')).remoteRepositories;

export const credentialBackends: Readonly<Record<string, () => Promise<CredentialBackend>>> = {
  file: async () => (await import('../../backends/credentials/index.js')).fileCredentials,
  memory: async () => (await import('../../backends/credentials/index.js')).memoryCredentials,
  os: async () => (await import('../../backends/credentials/index.js')).osCredentials,
};

export interface Catalog {
  readonly plugins: Readonly<Record<string, ModuleImporter>>;
  /** By built-in plugin id; see builtinPluginCommands. */
  readonly pluginCommands: Readonly<Record<string, () => Promise<readonly CommandDefinition[]>>>;
  readonly stores: Readonly<Record<string, () => Promise<StoreBackend>>>;
  readonly notifiers: Readonly<Record<string, () => Promise<NotifierBackend>>>;
  readonly blobs: Readonly<Record<string, () => Promise<BlobBackend>>>;
  readonly credentials: Readonly<Record<string, () => Promise<CredentialBackend>>>;
  readonly snapshots: Readonly<Record<string, () => Promise<SnapshotBackend>>>;
  readonly remoteRepositories: () => Promise<RemoteRepositoriesBackend>;
}

export const defaultCatalog: Catalog = {
  plugins: builtinPlugins,
  pluginCommands: builtinPluginCommands,
  stores: storeBackends,
  notifiers: notifierBackends,
  blobs: blobBackends,
  credentials: credentialBackends,
  snapshots: snapshotBackends,
  remoteRepositories: remoteRepositoriesBackend,
};
