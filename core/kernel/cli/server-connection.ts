import { existsSync } from 'node:fs';
import type { CredentialBackends } from '../catalog.js';
import type { Env } from '../config/env-config.js';
import { InputError } from '../errors.js';
import { SYSTEM_TOKEN_NAME } from '../secrets-bootstrap.js';
import { providedCredentialBackends } from './credential-backends.js';

export const DEFAULT_SERVER_URL = 'http://127.0.0.1:9090';

export interface ServerConnection {
  /** Without a trailing slash. */
  readonly baseUrl: string;
  readonly token: string;
}

/** The server's base URL (spec, "CLI connection"): `SVC_URL`, default http://127.0.0.1:9090. */
export function serverBaseUrl(env: Env): string {
  const raw = env['SVC_URL']?.trim() || DEFAULT_SERVER_URL;
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new InputError(`SVC_URL='${raw}' is not a URL; use e.g. ${DEFAULT_SERVER_URL}`, { code: 'invalid_server_url' });
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new InputError(`SVC_URL='${raw}' must be an http:// or https:// URL`, { code: 'invalid_server_url' });
  return url.toString().replace(/\/+$/, '');
}

/**
 * Where the server is and how to authenticate (spec, "CLI connection"): `SVC_URL` (default
 * http://127.0.0.1:9090); the token from `SVC_TOKEN`, else `SVC_SYSTEM_TOKEN`, else the system
 * token the server keeps in its credential store, found the way the server finds it (same
 * configuration, same data directory, same store). Shared by every plugin's CLI commands. The
 * store is opened with `credentials`, by default the backends the entry point provided
 * (provideCredentialBackends).
 */
export async function resolveConnection(env: Env, cwd: string, credentials?: CredentialBackends): Promise<ServerConnection> {
  const baseUrl = serverBaseUrl(env);
  const token = env['SVC_TOKEN'] || env['SVC_SYSTEM_TOKEN'] || (await storedSystemToken(env, cwd, credentials ?? providedCredentialBackends()));
  return { baseUrl, token };
}

async function storedSystemToken(env: Env, cwd: string, credentials: CredentialBackends): Promise<string> {
  // Loaded only here: a CLI given a token (the usual case) never pays for the configuration
  // reader, its validator and the logger.
  const [{ loadConfig }, { createSilentLogger }, { systemClock }] = await Promise.all([import('../config/load-config.js'), import('../logger.js'), import('../system-clock.js')]);
  const config = loadConfig({ env, cwd });
  const missing = `no token: set SVC_TOKEN (or SVC_SYSTEM_TOKEN), or run this as the user whose \`svc serve\` keeps its system token under ${config.dataDir}`;
  // Nothing outside the server process can read a memory store; a data directory that does not
  // exist means no server ran here (and the CLI must not create one by looking).
  if (config.credentialStore === 'memory' || !existsSync(config.dataDir)) throw new MissingTokenError(missing);
  const backend = credentials[config.credentialStore];
  if (!backend) throw new MissingTokenError(missing);
  const store = await (await backend()).create({ logger: createSilentLogger(), clock: systemClock, dataDir: config.dataDir });
  const token = await store.get(SYSTEM_TOKEN_NAME);
  if (token === undefined || token === '') throw new MissingTokenError(missing);
  return token;
}

/** No token variable and no stored system token the CLI can read. */
export class MissingTokenError extends InputError {
  constructor(message: string) {
    super(message, { code: 'missing_token' });
  }
}
