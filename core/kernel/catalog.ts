import type { BlobBackend, CredentialBackend, NotifierBackend, RemoteRepositoriesBackend, SnapshotBackend, StoreBackend } from './backend-module.js';
import type { CommandDefinition } from './command.js';
import type { ModuleImporter } from './plugin-loader.js';

/**
 * What a host can load: plugins by built-in id and backends by name. The kernel defines only this
 * shape and names no plugin or backend; the composition roots pass one in (`svc` and `svc serve`
 * pass the built-ins, `builtins/index.ts`; tests add or replace entries).
 */
export interface Catalog {
  readonly plugins: Readonly<Record<string, ModuleImporter>>;
  /** The `svc` subcommands of the built-in plugins that have some, by plugin id, from each one's CLI face (its server side is never loaded for them). No entry: no commands. */
  readonly pluginCommands: Readonly<Record<string, () => Promise<readonly CommandDefinition[]>>>;
  readonly stores: Readonly<Record<string, () => Promise<StoreBackend>>>;
  readonly notifiers: Readonly<Record<string, () => Promise<NotifierBackend>>>;
  readonly blobs: Readonly<Record<string, () => Promise<BlobBackend>>>;
  readonly credentials: CredentialBackends;
  readonly snapshots: Readonly<Record<string, () => Promise<SnapshotBackend>>>;
  readonly remoteRepositories: () => Promise<RemoteRepositoriesBackend>;
}

/** Credential store backends by SVC_CREDENTIAL_STORE name. */
export type CredentialBackends = Readonly<Record<string, () => Promise<CredentialBackend>>>;
