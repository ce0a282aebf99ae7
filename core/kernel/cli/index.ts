/**
 * The kernel's face for CLI processes (`svc` and its plugin commands): what they share, and
 * nothing that loads the server (Fastify, the stores, Ajv), so a command starts quickly. The
 * server side is `core/kernel/index.ts`, which re-exports this too.
 */
export * from '../errors.js';
export type { CommandDefinition, CommandContext, CommandOption, CommandArgument } from '../command.js';
export type { Catalog, CredentialBackends } from '../catalog.js';
export type { BlobBackend, CredentialBackend, NotifierBackend, RemoteRepositoriesBackend, SnapshotBackend, StoreBackend } from '../backend-module.js';
export type { ModuleImporter } from '../plugin-loader.js';
export { packageInfo } from '../package-info.js';
export { loadPluginCommands, type PluginCommand } from '../plugin-commands.js';
export { exportClusterKey, importClusterKey, type ClusterKeyImport } from './cluster-key.js';
export { provideCredentialBackends } from './credential-backends.js';
export { DEFAULT_SERVER_URL, MissingTokenError, resolveConnection, serverBaseUrl, type ServerConnection } from './server-connection.js';
export { parsePositiveId, runCommand } from './command-body.js';
export { promptHidden, PromptCancelledError, readValue } from './read-value.js';
export { apiRequest, ServerAnswerError, ServerUnreachableError, type ApiRequestInit, type ApiResponse } from './api-request.js';
