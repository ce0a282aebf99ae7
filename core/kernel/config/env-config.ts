import { isIP } from 'node:net';
import { isAbsolute } from 'node:path';
import { ConfigError } from '../errors.js';
import { DEFAULT_HTTP_LIMITS, type HttpLimits } from '../http/http-limits.js';
import { integerKnob, switchOffByDefault, switchOnByDefault, type KnobReport } from './knobs.js';
import { readPoolConfig, type PoolConfig } from './pool-config.js';

export type Env = Readonly<Record<string, string | undefined>>;

export interface ListenAddress {
  readonly host: string;
  readonly port: number;
}

export type CredentialStoreKind = 'file' | 'memory' | 'os';
export type RegistrationPolicy = 'strict' | 'permissive';
/** Which listener flow runners are put on: the legacy message queue, or the broker + run service. */
export type RunnerFlow = 'legacy' | 'broker';

/** Everything read from SVC_* variables, validated and with the spec's fallbacks applied. */
export interface EnvConfig {
  readonly listen: ListenAddress;
  readonly publicUrl: string | undefined;
  readonly systemToken: string | undefined;
  readonly credentialStore: CredentialStoreKind | undefined;
  readonly configFile: string | undefined;
  readonly dataDir: string | undefined;
  readonly pluginsFile: string | undefined;
  readonly databaseUrl: string | undefined;
  readonly redisUrl: string | undefined;
  readonly logLevel: string;
  readonly registrationPolicy: RegistrationPolicy;
  /** SVC_RUNNER_FLOW (default `legacy`). */
  readonly runnerFlow: RunnerFlow;
  /** SVC_RUNNER_SOCKET: a Unix socket (mode 0600) serving only the runner surface; unset = none. */
  readonly runnerSocket: string | undefined;
  readonly forgeApiUrl: string;
  readonly forgeToken: string | undefined;
  /**
   * SVC_FORGE_API_URL or SVC_FORGE_TOKEN is set: the operator pointed svc at a forge. Features that
   * reach out to the forge only when asked to (action downloads) check this, not the default URL.
   */
  readonly forgeConfigured: boolean;
  /**
   * SVC_FORGE_GIT_URL: where the forge serves git over HTTP(S) (`<url>/<owner>/<repo>.git`), for
   * the checkout relay's forge mirror; unset = derived from SVC_FORGE_API_URL.
   */
  readonly forgeGitUrl: string | undefined;
  /** SVC_BLOB_DIR: a directory every node reaches (e.g. NFS) holding the blobs; unset = the default store. */
  readonly blobDir: string | undefined;
  /** SVC_CLUSTER_KEY_FILE: the file holding the cluster key that seals the shared keys (PostgreSQL); unset = the credential store's `cluster-key`. */
  readonly clusterKeyFile: string | undefined;
  /**
   * CREDENTIALS_DIRECTORY: where the service manager (systemd `LoadCredentialEncrypted=`) puts the
   * service's decrypted credentials; the secrets plugin reads its `svc-secrets` overlay there (rule 11).
   */
  readonly credentialsDirectory: string | undefined;
  /** Directory of bare action repositories (`<dir>/<owner>/<repo>.git`) served to runners before the forge. */
  readonly actionsMirrorDir: string | undefined;
  readonly webhookSecret: string | undefined;
  readonly enableAppRegistration: boolean;
  readonly webhook: {
    readonly watchdog: boolean;
    readonly watchdogIntervalSecs: number;
    readonly watchdogGraceSecs: number;
    readonly watchdogMaxAttempts: number;
    readonly watchdogMaxPages: number;
    readonly healthIntervalSecs: number;
    readonly workers: number;
  };
  readonly forgeBreaker: { readonly enabled: boolean; readonly threshold: number };
  /** Working-tree snapshots (`svc run` uploads). */
  readonly snapshots: {
    /** Largest upload accepted, in bytes (compressed, as sent). */
    readonly maxBytes: number;
    /** How long an uploaded or submitted snapshot stays for checkout. */
    readonly retentionSecs: number;
  };
  /** Cache, artifacts and OIDC for actions (the runtime-services plugin). */
  readonly runtimeServices: RuntimeServicesConfig;
  /** The built-in pool (the vm-pool plugin): SVC_POOL_* (pool-config.ts). */
  readonly pool: PoolConfig;
  /** SVC_HTTP_*_TIMEOUT_SECS and SVC_MAX_CONNECTIONS_PER_IP: what one client may hold of the HTTP server. */
  readonly http: HttpLimits;
  /** Fallbacks applied to invalid knobs, logged at start. */
  readonly warnings: readonly string[];
}

export interface RuntimeServicesConfig {
  /** SVC_CACHE_MAX_BYTES: cache bytes kept per repository, least recently used evicted first (default 10 GiB). */
  readonly cacheMaxBytes: number;
  /** SVC_CACHE_MAX_AGE_DAYS: cache entries not used for this long are evicted (default 7). */
  readonly cacheMaxAgeDays: number;
  /** SVC_ARTIFACT_RETENTION_DAYS: default and longest artifact retention (default 90). */
  readonly artifactRetentionDays: number;
  /** SVC_OIDC_KEY_ROTATION_DAYS: OIDC signing key lifetime before the next one takes over (default 30). */
  readonly oidcKeyRotationDays: number;
}

export const DEFAULT_LISTEN = '127.0.0.1:9090';
export const DEFAULT_FORGE_API_URL = 'https://api.github.com';
export const DEFAULT_SNAPSHOT_MAX_BYTES = 1024 * 1024 * 1024;
export const DEFAULT_SNAPSHOT_RETENTION_SECS = 1800;
export const DEFAULT_CACHE_MAX_BYTES = 10 * 1024 * 1024 * 1024;
const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'];

export function parseListen(raw: string, name = 'SVC_LISTEN'): ListenAddress {
  const match = /^(?:\[([0-9a-fA-F:.]+)\]|([^:[\]\s]+)):(\d{1,5})$/.exec(raw.trim());
  const host = match?.[1] ?? match?.[2];
  const port = match ? Number(match[3]) : NaN;
  if (!match || host === undefined || !(port >= 0 && port <= 65535)) {
    throw new ConfigError(`${name}='${raw}' is not a listen address; use host:port, e.g. ${DEFAULT_LISTEN} or [::1]:9090`);
  }
  if (match[1] !== undefined && isIP(host) !== 6) {
    throw new ConfigError(`${name}='${raw}': '${host}' in brackets is not an IPv6 address`);
  }
  return { host, port };
}

/** A host that listens on every address (`0.0.0.0`, `::`): no one can connect to it by that name. */
export function isWildcardHost(host: string): boolean {
  return host === '0.0.0.0' || host === '::';
}

/**
 * The URL of a server listening on `host:port`, as this machine reaches it: a wildcard host is
 * loopback (the spec's default for SVC_PUBLIC_URL), an IPv6 host is bracketed.
 */
export function listenUrl(host: string, port: number): string {
  const reachable = host === '0.0.0.0' ? '127.0.0.1' : host === '::' ? '::1' : host;
  return `http://${reachable.includes(':') ? `[${reachable}]` : reachable}:${port}`;
}

export function isLoopbackHost(host: string): boolean {
  return host === 'localhost' || host === '::1' || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(host);
}

function oneOf<T extends string>(name: string, raw: string | undefined, allowed: readonly T[]): T | undefined {
  if (raw === undefined || raw === '') return undefined;
  const value = raw.trim().toLowerCase();
  if (!(allowed as readonly string[]).includes(value)) {
    throw new ConfigError(`${name}='${raw}' is not allowed; use one of: ${allowed.join(', ')}`);
  }
  return value as T;
}

function httpUrl(name: string, raw: string | undefined): string | undefined {
  if (raw === undefined || raw.trim() === '') return undefined;
  let url: URL;
  try {
    url = new URL(raw.trim());
  } catch {
    throw new ConfigError(`${name}='${raw}' is not a URL; use e.g. https://ci.example.com`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new ConfigError(`${name}='${raw}' must be an http:// or https:// URL`);
  }
  return url.toString().replace(/\/$/, '');
}

function urlWithScheme(name: string, raw: string | undefined, schemes: readonly string[]): string | undefined {
  if (raw === undefined || raw.trim() === '') return undefined;
  let url: URL;
  try {
    url = new URL(raw.trim());
  } catch {
    throw new ConfigError(`${name} is not a URL; use e.g. ${schemes[0]}//host:port/...`);
  }
  if (!schemes.includes(url.protocol)) {
    throw new ConfigError(`${name} must start with ${schemes.map((s) => `${s}//`).join(' or ')}, got '${url.protocol}//'`);
  }
  return raw.trim();
}

function absolutePath(name: string, raw: string | undefined): string | undefined {
  if (raw === undefined || raw.trim() === '') return undefined;
  if (!isAbsolute(raw.trim())) throw new ConfigError(`${name}='${raw}' must be an absolute path, e.g. /srv/svc/actions`);
  return raw.trim();
}

/**
 * Longest socket path the platform binds (`sun_path` less its NUL: 108 bytes on Linux, 104 on
 * macOS and the BSDs); Node would otherwise fail at listen with a bare EINVAL or truncate silently.
 */
export const MAX_SOCKET_PATH_BYTES = process.platform === 'linux' ? 107 : 103;

export function socketPath(name: string, raw: string | undefined): string | undefined {
  if (raw === undefined || raw.trim() === '') return undefined;
  const path = raw.trim();
  if (!isAbsolute(path)) throw new ConfigError(`${name}='${raw}' must be an absolute path, e.g. /run/svc/runner.sock`);
  if (path.endsWith('/')) throw new ConfigError(`${name}='${raw}' names a directory; give the socket file's path, e.g. ${path}runner.sock`);
  if (path.includes('\0')) throw new ConfigError(`${name} contains a NUL character`);
  const bytes = Buffer.byteLength(path, 'utf8');
  if (bytes > MAX_SOCKET_PATH_BYTES) {
    throw new ConfigError(`${name}='${raw}' is ${bytes} bytes long; a Unix socket path may have at most ${MAX_SOCKET_PATH_BYTES}: choose a shorter path, e.g. /run/svc/runner.sock`);
  }
  return path;
}

function nonEmpty(raw: string | undefined): string | undefined {
  return raw === undefined || raw === '' ? undefined : raw;
}

function readHttpLimits(env: Env, report: KnobReport): HttpLimits {
  const secs = (name: string, defaultMs: number) => integerKnob({ name, defaultValue: defaultMs / 1000, min: 1, belowMinIsInvalid: true }, env[name], report) * 1000;
  const requestTimeoutMs = secs('SVC_HTTP_REQUEST_TIMEOUT_SECS', DEFAULT_HTTP_LIMITS.requestTimeoutMs);
  return {
    // Node refuses a header timeout longer than the request timeout.
    headersTimeoutMs: Math.min(secs('SVC_HTTP_HEADERS_TIMEOUT_SECS', DEFAULT_HTTP_LIMITS.headersTimeoutMs), requestTimeoutMs),
    requestTimeoutMs,
    idleTimeoutMs: secs('SVC_HTTP_IDLE_TIMEOUT_SECS', DEFAULT_HTTP_LIMITS.idleTimeoutMs),
    keepAliveTimeoutMs: DEFAULT_HTTP_LIMITS.keepAliveTimeoutMs,
    maxConnectionsPerIp: integerKnob(
      { name: 'SVC_MAX_CONNECTIONS_PER_IP', defaultValue: DEFAULT_HTTP_LIMITS.maxConnectionsPerIp, min: 0, belowMinIsInvalid: true },
      env.SVC_MAX_CONNECTIONS_PER_IP,
      report,
    ),
  };
}

export function readEnvConfig(env: Env): EnvConfig {
  const report: KnobReport = { warnings: [] };
  const listen = parseListen(env.SVC_LISTEN ?? DEFAULT_LISTEN);
  const registrationPolicy = oneOf('SVC_REGISTRATION_POLICY', env.SVC_REGISTRATION_POLICY, ['strict', 'permissive'] as const) ?? 'strict';
  if (registrationPolicy === 'permissive' && !isLoopbackHost(listen.host)) {
    throw new ConfigError(
      `SVC_REGISTRATION_POLICY=permissive is only allowed on a loopback listener, but SVC_LISTEN is ${listen.host}:${listen.port}; ` +
        'use strict, or listen on 127.0.0.1',
    );
  }
  const logLevel = oneOf('SVC_LOG_LEVEL', env.SVC_LOG_LEVEL, LOG_LEVELS) ?? 'info';
  const systemToken = nonEmpty(env.SVC_SYSTEM_TOKEN);
  if (systemToken !== undefined && systemToken.length < 16) {
    throw new ConfigError('SVC_SYSTEM_TOKEN is shorter than 16 characters; use a long random value (e.g. openssl rand -hex 32)');
  }
  return {
    listen,
    publicUrl: httpUrl('SVC_PUBLIC_URL', env.SVC_PUBLIC_URL),
    systemToken,
    credentialStore: oneOf('SVC_CREDENTIAL_STORE', env.SVC_CREDENTIAL_STORE, ['file', 'memory', 'os'] as const),
    configFile: nonEmpty(env.SVC_CONFIG),
    dataDir: nonEmpty(env.SVC_DATA_DIR),
    pluginsFile: nonEmpty(env.SVC_PLUGINS),
    databaseUrl: urlWithScheme('SVC_DATABASE_URL', env.SVC_DATABASE_URL, ['postgres:', 'postgresql:', 'sqlite:']),
    redisUrl: urlWithScheme('SVC_REDIS_URL', env.SVC_REDIS_URL, ['redis:', 'rediss:']),
    logLevel,
    registrationPolicy,
    runnerFlow: oneOf('SVC_RUNNER_FLOW', env.SVC_RUNNER_FLOW, ['legacy', 'broker'] as const) ?? 'legacy',
    runnerSocket: socketPath('SVC_RUNNER_SOCKET', env.SVC_RUNNER_SOCKET),
    forgeApiUrl: httpUrl('SVC_FORGE_API_URL', env.SVC_FORGE_API_URL) ?? DEFAULT_FORGE_API_URL,
    forgeToken: nonEmpty(env.SVC_FORGE_TOKEN),
    forgeConfigured: nonEmpty(env.SVC_FORGE_API_URL?.trim()) !== undefined || nonEmpty(env.SVC_FORGE_TOKEN) !== undefined,
    forgeGitUrl: httpUrl('SVC_FORGE_GIT_URL', env.SVC_FORGE_GIT_URL),
    blobDir: absolutePath('SVC_BLOB_DIR', env.SVC_BLOB_DIR),
    clusterKeyFile: absolutePath('SVC_CLUSTER_KEY_FILE', env.SVC_CLUSTER_KEY_FILE),
    actionsMirrorDir: absolutePath('SVC_ACTIONS_MIRROR_DIR', env.SVC_ACTIONS_MIRROR_DIR),
    credentialsDirectory: absolutePath('CREDENTIALS_DIRECTORY', env.CREDENTIALS_DIRECTORY),
    webhookSecret: nonEmpty(env.SVC_WEBHOOK_SECRET),
    enableAppRegistration: switchOffByDefault(env.SVC_ENABLE_APP_REGISTRATION),
    webhook: {
      watchdog: switchOnByDefault(env.SVC_WEBHOOK_WATCHDOG),
      watchdogIntervalSecs: integerKnob({ name: 'SVC_WEBHOOK_WATCHDOG_INTERVAL_SECS', defaultValue: 300, min: 10 }, env.SVC_WEBHOOK_WATCHDOG_INTERVAL_SECS, report),
      watchdogGraceSecs: integerKnob({ name: 'SVC_WEBHOOK_WATCHDOG_GRACE_SECS', defaultValue: 120, min: 0, belowMinIsInvalid: true }, env.SVC_WEBHOOK_WATCHDOG_GRACE_SECS, report),
      watchdogMaxAttempts: integerKnob({ name: 'SVC_WEBHOOK_WATCHDOG_MAX_ATTEMPTS', defaultValue: 5, min: 1, belowMinIsInvalid: true }, env.SVC_WEBHOOK_WATCHDOG_MAX_ATTEMPTS, report),
      watchdogMaxPages: integerKnob({ name: 'SVC_WEBHOOK_WATCHDOG_MAX_PAGES', defaultValue: 5, min: 1 }, env.SVC_WEBHOOK_WATCHDOG_MAX_PAGES, report),
      healthIntervalSecs: integerKnob({ name: 'SVC_WEBHOOK_HEALTH_INTERVAL_SECS', defaultValue: 900, min: 60 }, env.SVC_WEBHOOK_HEALTH_INTERVAL_SECS, report),
      workers: integerKnob({ name: 'SVC_WEBHOOK_WORKERS', defaultValue: 8, min: 1 }, env.SVC_WEBHOOK_WORKERS, report),
    },
    forgeBreaker: {
      enabled: switchOnByDefault(env.SVC_FORGE_BREAKER),
      threshold: integerKnob({ name: 'SVC_FORGE_BREAKER_THRESHOLD', defaultValue: 3, min: 1, belowMinIsInvalid: true }, env.SVC_FORGE_BREAKER_THRESHOLD, report),
    },
    snapshots: {
      maxBytes: integerKnob({ name: 'SVC_SNAPSHOT_MAX_BYTES', defaultValue: DEFAULT_SNAPSHOT_MAX_BYTES, min: 1, belowMinIsInvalid: true }, env.SVC_SNAPSHOT_MAX_BYTES, report),
      retentionSecs: integerKnob({ name: 'SVC_SNAPSHOT_RETENTION_SECS', defaultValue: DEFAULT_SNAPSHOT_RETENTION_SECS, min: 60 }, env.SVC_SNAPSHOT_RETENTION_SECS, report),
    },
    runtimeServices: {
      cacheMaxBytes: integerKnob({ name: 'SVC_CACHE_MAX_BYTES', defaultValue: DEFAULT_CACHE_MAX_BYTES, min: 1, belowMinIsInvalid: true }, env.SVC_CACHE_MAX_BYTES, report),
      cacheMaxAgeDays: integerKnob({ name: 'SVC_CACHE_MAX_AGE_DAYS', defaultValue: 7, min: 1, belowMinIsInvalid: true }, env.SVC_CACHE_MAX_AGE_DAYS, report),
      artifactRetentionDays: integerKnob({ name: 'SVC_ARTIFACT_RETENTION_DAYS', defaultValue: 90, min: 1, belowMinIsInvalid: true }, env.SVC_ARTIFACT_RETENTION_DAYS, report),
      oidcKeyRotationDays: integerKnob({ name: 'SVC_OIDC_KEY_ROTATION_DAYS', defaultValue: 30, min: 1, belowMinIsInvalid: true }, env.SVC_OIDC_KEY_ROTATION_DAYS, report),
    },
    pool: readPoolConfig(env, report),
    http: readHttpLimits(env, report),
    warnings: report.warnings,
  };
}

/**
 * The runner socket the built-in pool needs when SVC_RUNNER_SOCKET is unset: guests of the
 * namespace backend have no route to the host network and reach the control plane only through
 * it. With SVC_POOL_BACKEND=namespace or auto (which picks namespace where the kernel allows) on
 * Linux, it defaults to `<data dir>/runner.sock`; undefined when that path is too long for a
 * socket (the pool then says the namespace backend needs SVC_RUNNER_SOCKET).
 */
export function poolRunnerSocketDefault(env: EnvConfig, dataDir: string, platform: NodeJS.Platform = process.platform): string | undefined {
  if (env.runnerSocket !== undefined) return env.runnerSocket;
  if (platform !== 'linux' || (env.pool.backend !== 'namespace' && env.pool.backend !== 'microvm' && env.pool.backend !== 'auto')) return undefined;
  const path = `${dataDir.replace(/\/+$/, '')}/runner.sock`;
  return Buffer.byteLength(path, 'utf8') <= MAX_SOCKET_PATH_BYTES ? path : undefined;
}
