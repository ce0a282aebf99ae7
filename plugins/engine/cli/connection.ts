import { existsSync } from 'node:fs';
import { createSilentLogger, defaultCatalog, loadConfig, SYSTEM_TOKEN_NAME, systemClock, type Env } from '../../../core/kernel/index.js';

export const DEFAULT_SERVER_URL = 'http://127.0.0.1:9090';

export interface ServerConnection {
  /** Without a trailing slash. */
  readonly baseUrl: string;
  readonly token: string;
}

/**
 * Where the server is and how to authenticate (spec, "CLI connection"): `SVC_URL` (default
 * http://127.0.0.1:9090); the token from `SVC_TOKEN`, else `SVC_SYSTEM_TOKEN`, else the system
 * token the server keeps in its credential store, found the way the server finds it (same
 * configuration, same data directory, same store).
 */
export async function resolveConnection(env: Env, cwd: string): Promise<ServerConnection> {
  const raw = env['SVC_URL']?.trim() || DEFAULT_SERVER_URL;
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new Error(`SVC_URL='${raw}' is not a URL; use e.g. ${DEFAULT_SERVER_URL}`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new Error(`SVC_URL='${raw}' must be an http:// or https:// URL`);
  const baseUrl = url.toString().replace(/\/+$/, '');
  const token = env['SVC_TOKEN'] || env['SVC_SYSTEM_TOKEN'] || (await storedSystemToken(env, cwd));
  return { baseUrl, token };
}

async function storedSystemToken(env: Env, cwd: string): Promise<string> {
  const config = loadConfig({ env, cwd });
  const missing = `no token: set SVC_TOKEN (or SVC_SYSTEM_TOKEN), or run this as the user whose \`svc serve\` keeps its system token under ${config.dataDir}`;
  // Nothing outside the server process can read a memory store; a data directory that does not
  // exist means no server ran here (and the CLI must not create one by looking).
  if (config.credentialStore === 'memory' || !existsSync(config.dataDir)) throw new Error(missing);
  const backend = defaultCatalog.credentials[config.credentialStore];
  if (!backend) throw new Error(missing);
  const store = await (await backend()).create({ logger: createSilentLogger(), clock: systemClock, dataDir: config.dataDir });
  const token = await store.get(SYSTEM_TOKEN_NAME);
  if (token === undefined || token === '') throw new Error(missing);
  return token;
}
