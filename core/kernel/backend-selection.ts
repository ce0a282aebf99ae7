import type { EnvConfig } from './config/env-config.js';
import { ConfigError } from './errors.js';
import type { PluginsFile } from './plugins-file.js';

export interface BackendChoice {
  readonly id: string;
  readonly url?: string;
  /** Where a directory backend keeps its files when not under the data dir (SVC_BLOB_DIR). */
  readonly directory?: string;
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
  return { store, notifier, blobs: selectBlobs(file, env, storeId), snapshots: { id: file.backends.snapshots } };
}

/**
 * `blobs = "auto"`: SVC_BLOB_DIR when set (a directory every node reaches), PostgreSQL with the
 * PostgreSQL store (every node reaches it already), else the filesystem under the data dir.
 * SVC_BLOB_DIR also places an explicit `filesystem`; it contradicts an explicit `postgres`.
 */
function selectBlobs(file: PluginsFile, env: EnvConfig, storeId: string): BackendChoice {
  const chosen = file.backends.blobs;
  const directory = env.blobDir;
  if (chosen === 'postgres') {
    if (directory !== undefined) {
      throw new ConfigError(`${file.path} selects blobs "postgres", but SVC_BLOB_DIR is set too; unset one of them (or use blobs = "auto")`);
    }
    if (storeId !== 'postgres') {
      throw new ConfigError(`${file.path} selects blobs "postgres", which needs the PostgreSQL store (SVC_DATABASE_URL=postgres://...)`);
    }
    return { id: 'postgres' };
  }
  if (directory !== undefined) return { id: 'filesystem', directory };
  if (chosen === 'auto' && storeId === 'postgres') return { id: 'postgres' };
  return { id: 'filesystem' };
}
