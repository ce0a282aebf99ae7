import { existsSync } from 'node:fs';
import type { CredentialStore } from '../../ports/index.js';
import type { CredentialBackends } from '../catalog.js';
import type { Env } from '../config/env-config.js';
import { InputError } from '../errors.js';
import { parseClusterKey } from '../shared-keys/cluster-key.js';
import { CLUSTER_KEY_NAME, credentialSource, fileSource } from '../shared-keys/cluster-key-source.js';

export interface ClusterKeyImport {
  /** The imported key's id (as `svc serve`'s messages name it). */
  readonly id: string;
  /** Where it went, e.g. "the file credential store's 'cluster-key'". */
  readonly where: string;
  /** False when the store already held this very key. */
  readonly changed: boolean;
}

/**
 * `svc cluster-key export`: the cluster key this node's `svc serve` uses (SVC_CLUSTER_KEY_FILE, else
 * the credential store, opened with `backends`), in its text form, for another node's `svc
 * cluster-key import`.
 */
export async function exportClusterKey(env: Env, cwd: string, backends: CredentialBackends): Promise<string> {
  const { config, credentials } = await localCredentials(env, cwd, backends, false);
  const file = config.env.clusterKeyFile;
  const source = file !== undefined ? fileSource(file) : credentials === undefined ? undefined : credentialSource(credentials);
  const text = await source?.read();
  if (source === undefined || text === undefined) {
    throw new InputError(
      `no cluster key here (looked in ${source?.description ?? `the ${config.credentialStore} credential store under ${config.dataDir}`}): run this on a node whose \`svc serve\` runs with PostgreSQL, as its user and with its configuration`,
      { code: 'cluster_key_missing' },
    );
  }
  return parseClusterKey(text, source.description).text;
}

/**
 * `svc cluster-key import`: stores a key (from `svc cluster-key export`) in this node's credential
 * store (opened with `backends`), where `svc serve` finds it when SVC_CLUSTER_KEY_FILE is not set. A different key already
 * there is replaced only with `replace`: it may be the only copy of another cluster's key.
 */
export async function importClusterKey(env: Env, cwd: string, backends: CredentialBackends, input: string, options: { readonly replace: boolean }): Promise<ClusterKeyImport> {
  const key = parseClusterKey(input, 'the input');
  const { config, credentials } = await localCredentials(env, cwd, backends, true);
  if (config.env.clusterKeyFile !== undefined) {
    throw new InputError(
      `SVC_CLUSTER_KEY_FILE is set (${config.env.clusterKeyFile}): this node reads its cluster key from that file, so put the key there (mode 0600) instead, or unset SVC_CLUSTER_KEY_FILE`,
      { code: 'cluster_key_file_set' },
    );
  }
  if (credentials === undefined) {
    throw new InputError('the credential store is `memory`: nothing outside `svc serve` can write it; set SVC_CLUSTER_KEY_FILE to a mode-0600 file holding the key instead', {
      code: 'cluster_key_memory_store',
    });
  }
  const where = `the ${credentials.kind} credential store's '${CLUSTER_KEY_NAME}'`;
  const existing = await credentials.get(CLUSTER_KEY_NAME);
  if (existing !== undefined) {
    const held = parseClusterKey(existing, where);
    if (held.verifier === key.verifier) return { id: key.id, where, changed: false };
    if (!options.replace) {
      throw new InputError(
        `${where} already holds another cluster key (${held.id}; importing ${key.id}); if this node belongs to the cluster of ${key.id}, run again with --replace (keep a copy of ${held.id} if another database still uses it: \`svc cluster-key export\`)`,
        { code: 'cluster_key_exists' },
      );
    }
  }
  await credentials.set(CLUSTER_KEY_NAME, key.text);
  return { id: key.id, where, changed: true };
}

async function localCredentials(env: Env, cwd: string, backends: CredentialBackends, create: boolean): Promise<{ config: Awaited<ReturnType<typeof loadConfigOf>>; credentials: CredentialStore | undefined }> {
  const config = await loadConfigOf(env, cwd);
  // A memory store is the server process's own; a data directory that does not exist holds no key
  // to export (and must not be created by looking).
  if (config.credentialStore === 'memory' || (!create && !existsSync(config.dataDir))) return { config, credentials: undefined };
  const backend = backends[config.credentialStore];
  if (!backend) return { config, credentials: undefined };
  const [{ createSilentLogger }, { systemClock }] = await Promise.all([import('../logger.js'), import('../system-clock.js')]);
  return { config, credentials: await (await backend()).create({ logger: createSilentLogger(), clock: systemClock, dataDir: config.dataDir }) };
}

async function loadConfigOf(env: Env, cwd: string) {
  const { loadConfig } = await import('../config/load-config.js');
  return loadConfig({ env, cwd });
}
