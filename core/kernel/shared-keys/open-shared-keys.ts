import type { Clock, CredentialStore, SharedKeys } from '../../ports/index.js';
import type { Store } from '../backend-module.js';
import { ConfigError } from '../errors.js';
import type { Logger } from '../logger.js';
import { generateClusterKey, parseClusterKey, verifierId, type ClusterKey } from './cluster-key.js';
import { clusterKeySource, type ClusterKeySource } from './cluster-key-source.js';
import { localSharedKeys } from './local-keys.js';
import { createSealedSharedKeys, SHARED_KEYS_MIGRATION_OWNER, SHARED_KEYS_MIGRATIONS, sharedKeysDb } from './sealed-table.js';

export interface OpenSharedKeysOptions {
  readonly store: Store;
  readonly credentials: CredentialStore;
  /** SVC_CLUSTER_KEY_FILE. */
  readonly clusterKeyFile: string | undefined;
  readonly clock: Clock;
  readonly logger: Logger;
}

const HOW_TO_COPY = (source: ClusterKeySource, replacing = false): string =>
  `copy the cluster key from a node that has it: there run \`svc cluster-key export > cluster.key\` and bring the file here over a channel you trust, ${source.howToPlace(replacing)}. This node reads ${source.description}. svc never makes a replacement: a new key would not open the keys the other nodes sign with`;

/**
 * The shared keys of this installation. A single-node store: the credential store itself. A
 * store several nodes share: the sealed table, under the cluster key this node holds. The first
 * node on an empty database makes the cluster key and records its verifier; every later start
 * must hold a key with that verifier, or stops naming what to do.
 */
export async function openSharedKeys(options: OpenSharedKeysOptions): Promise<SharedKeys> {
  const { store, credentials, clock, logger } = options;
  if (!store.database.capabilities.multiNode) return localSharedKeys(credentials);
  const report = await store.migrator.migrate(SHARED_KEYS_MIGRATION_OWNER, SHARED_KEYS_MIGRATIONS);
  if (report.error) throw new ConfigError(`the shared-keys tables could not be created: ${report.error.message}`, { cause: report.error });

  const db = sharedKeysDb(store.database);
  const recorded = async () => (await db.selectFrom('svc_cluster').select('verifier').where('id', '=', 1).executeTakeFirst())?.verifier;
  const source = clusterKeySource({ file: options.clusterKeyFile, credentials });
  const held = await source.read();
  let key = held === undefined ? undefined : parseClusterKey(held, source.description);
  const verifier = await recorded();

  if (verifier !== undefined) {
    if (key === undefined) {
      throw new ConfigError(`this node has no cluster key, and the shared database's keys are sealed under cluster key ${verifierId(verifier)}: ${HOW_TO_COPY(source)}`, {
        code: 'cluster_key_missing',
      });
    }
    checkMatches(key, verifier, source);
  } else {
    let made = false;
    if (key === undefined) {
      key = parseClusterKey(await source.create(generateClusterKey().text), source.description);
      made = true;
    }
    await db.insertInto('svc_cluster').values({ id: 1, verifier: key.verifier, created_at: clock.now() }).onConflict((oc) => oc.column('id').doNothing()).execute();
    const winner = await recorded();
    if (winner !== key.verifier) {
      // Another node set the cluster up at the same moment with its own key: ours seals nothing.
      if (made) await source.remove();
      throw new ConfigError(
        `another node set up this shared database at the same moment, under cluster key ${verifierId(winner ?? '')}${made ? ' (the key this node had just made is removed again)' : ''}: ${HOW_TO_COPY(source, !made)}`,
        { code: 'cluster_key_mismatch' },
      );
    }
    if (made && !source.persistent) {
      logger.warn(
        { clusterKey: key.id },
        'made the cluster key in the memory credential store: it is lost when this process stops, and with it every shared key in the database; set SVC_CLUSTER_KEY_FILE or use a persistent credential store',
      );
    } else {
      logger.info({ clusterKey: key.id, where: source.description }, made ? 'made the cluster key that seals the shared keys; copy it to every other node (`svc cluster-key export`)' : 'set up the shared keys under this node\'s cluster key');
    }
  }
  return createSealedSharedKeys({ database: store.database, key, local: credentials, clock });
}

function checkMatches(key: ClusterKey, verifier: string, source: ClusterKeySource): void {
  if (key.verifier === verifier) return;
  throw new ConfigError(
    `the cluster key in ${source.description} (cluster key ${key.id}) is not the one the shared database's keys are sealed under (cluster key ${verifierId(verifier)}): ${HOW_TO_COPY(source, true)}`,
    { code: 'cluster_key_mismatch' },
  );
}
