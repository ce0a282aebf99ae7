import type { EnvConfig } from './config/env-config.js';
import { ConfigError } from './errors.js';
import type { PluginsFile } from './plugins-file.js';

export interface BackendChoice {
  readonly id: string;
  readonly url?: string;
}

export interface BackendSelection {
  readonly store: BackendChoice;
  readonly notifier: BackendChoice;
  readonly blobs: BackendChoice;
  readonly snapshots: BackendChoice;
}

/**
 * Picks backends from plugins.toml and the URL variables. A URL wins over the file's choice
 * (SVC_DATABASE_URL=postgres://... selects PostgreSQL); `notifier = "auto"` means Redis when
 * SVC_REDIS_URL is set, LISTEN/NOTIFY on PostgreSQL, in-process otherwise.
 */
export function selectBackends(file: PluginsFile, env: EnvConfig): BackendSelection {
  const dbUrl = env.databaseUrl;
  const storeId = dbUrl === undefined ? file.backends.store : dbUrl.startsWith('sqlite:') ? 'sqlite' : 'postgres';
  if (storeId === 'postgres' && dbUrl === undefined) {
    throw new ConfigError(`${file.path} selects store "postgres", but SVC_DATABASE_URL is not set; set it to postgres://user@host:5432/db`);
  }
  const store: BackendChoice = dbUrl === undefined ? { id: storeId } : { id: storeId, url: dbUrl };

  let notifierId: string = file.backends.notifier;
  if (notifierId === 'auto') notifierId = env.redisUrl !== undefined ? 'redis' : storeId === 'postgres' ? 'postgres' : 'in-process';
  if (notifierId === 'redis' && env.redisUrl === undefined) {
    throw new ConfigError(`${file.path} selects notifier "redis", but SVC_REDIS_URL is not set; set it to redis://host:6379`);
  }
  if (notifierId === 'postgres' && storeId !== 'postgres') {
    throw new ConfigError(`${file.path} selects notifier "postgres", which needs the PostgreSQL store (SVC_DATABASE_URL=postgres://...)`);
  }
  if (notifierId === 'in-process' && storeId === 'postgres') {
    throw new ConfigError(
      `${file.path} selects notifier "in-process" with the shared PostgreSQL store: other nodes would never be woken; use "auto", "postgres" or "redis"`,
    );
  }
  const notifierUrl = notifierId === 'redis' ? env.redisUrl : notifierId === 'postgres' ? dbUrl : undefined;
  const notifier: BackendChoice = notifierUrl === undefined ? { id: notifierId } : { id: notifierId, url: notifierUrl };
  return { store, notifier, blobs: { id: file.backends.blobs }, snapshots: { id: file.backends.snapshots } };
}
