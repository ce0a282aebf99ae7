export * from './errors.js';
export { createRootLogger, createSilentLogger, REDACTED_PATHS, type Logger, type LoggerSettings } from './logger.js';
export type {
  BackendContext,
  BlobBackend,
  BlobBackendContext,
  BlobBackendInstance,
  CredentialBackend,
  NotifierBackend,
  RemoteRepositoriesBackend,
  RemoteRepositoriesContext,
  SnapshotBackend,
  SnapshotBackendContext,
  Store,
  StoreBackend,
} from './backend-module.js';
export { createServiceRef, createExtensionPoint, optional, type ServiceRef, type ExtensionPoint, type Dependency, type OptionalDependency, type ServiceScope } from './service-ref.js';
export {
  definePlugin,
  PLUGIN_API_VERSION,
  type PluginDefinition,
  type PluginEnvironment,
  RUNNER_SURFACES,
  type RouteGroup,
  type RouteAuth,
  type RouteSurface,
  type Worker,
  type ReadinessCheck,
  type ReadinessNote,
  type DependencyMap,
  type ResolvedDependencies,
} from './plugin.js';
export type { CommandDefinition, CommandContext, CommandOption, CommandArgument } from './command.js';
export { coreServices, type SystemAuth, type HostLifecycle } from './core-services.js';
export type { SvcConfig } from './config/load-config.js';
export { loadConfig } from './config/load-config.js';
export { defaultNodeId, NODE_ID_PATTERN, readNodeId, type NodeIdentity } from './config/node-id.js';
export type { EnvConfig, Env, ListenAddress } from './config/env-config.js';
export type { OperatorConfig } from './config/operator-schema.js';
export { createHost, type Host, type HostOptions } from './host.js';
export type { Catalog, CredentialBackends } from './catalog.js';
export type { ModuleImporter } from './plugin-loader.js';
export { installShutdownSignals } from './shutdown-signals.js';
export { packageInfo } from './package-info.js';
export { credentialFromHeader } from './http/system-auth.js';
export { arrivedOnRunnerSocket } from './http/runner-socket-server.js';
export { DEFAULT_BODY_LIMIT } from './http/server.js';
export { DEFAULT_HTTP_LIMITS, holdConnection } from './http/http-limits.js';
export type { HttpLimits } from './http/http-limits.js';
export { acceptsCredential, routeTable } from './http/route-table.js';
export type { RouteEntry } from './http/route-table.js';
export { SYSTEM_TOKEN_NAME } from './secrets-bootstrap.js';
export { ensureSharedKey } from './shared-keys/ensure-shared-key.js';
export { keyBytes, keyText, openText, SEALING_KEY_BYTES, sealText } from './sealed-text.js';
export { localSharedKeys } from './shared-keys/local-keys.js';
export type { ErrorBody } from './http/error-handler.js';
// Twirp's {code, msg} envelope, for plugins that serve Twirp services.
export { installTwirpErrorHandler, isTwirpCode, sendTwirpError, TWIRP_STATUS, TwirpError, twirpCodeFor, twirpErrorOf } from './http/twirp-errors.js';
export type { TwirpCode, TwirpErrorBody } from './http/twirp-errors.js';
export { systemClock, randomIds } from './system-clock.js';
export { readVersions, type Versions } from './versions.js';
export { SERVER_UMASK, tightenDataDir } from './data-dir-modes.js';
export { loadPluginCommands, type PluginCommand } from './plugin-commands.js';
// What every plugin's CLI commands share: where the server is, its token, one request to it.
export { apiRequest, DEFAULT_SERVER_URL, MissingTokenError, resolveConnection, serverBaseUrl, ServerAnswerError, ServerUnreachableError, type ApiRequestInit, type ApiResponse, type ServerConnection } from './cli/index.js';
