import type { Kysely } from 'kysely';
import type { Clock, CredentialStore, Database, Migration, SharedKeys } from '../../ports/index.js';
import { openValue, sealValue, type ClusterKey } from './cluster-key.js';

/** Owner of the kernel's shared-key tables in the per-owner migrator (`svc_migrations_kernel_keys`). */
export const SHARED_KEYS_MIGRATION_OWNER = 'kernel-keys';

export type SharedKeyTables = {
  /** One row (id 1): the verifier of the cluster key everything is sealed under. */
  svc_cluster: { id: number; verifier: string; created_at: number };
  /** One row per shared key: its value sealed under the cluster key (AES-256-GCM, the name as associated data). */
  svc_shared_keys: { name: string; sealed: string; updated_at: number };
};

export type SharedKeysDb = Kysely<SharedKeyTables>;

export function sharedKeysDb(database: Database): SharedKeysDb {
  return database.kysely.withTables<SharedKeyTables>() as unknown as SharedKeysDb;
}

export const SHARED_KEYS_MIGRATIONS: readonly Migration[] = [
  {
    name: '001_shared_keys',
    async up(db) {
      await db.schema
        .createTable('svc_cluster')
        .addColumn('id', 'integer', (column) => column.primaryKey())
        .addColumn('verifier', 'text', (column) => column.notNull())
        .addColumn('created_at', 'bigint', (column) => column.notNull())
        .execute();
      await db.schema
        .createTable('svc_shared_keys')
        .addColumn('name', 'text', (column) => column.primaryKey())
        .addColumn('sealed', 'text', (column) => column.notNull())
        .addColumn('updated_at', 'bigint', (column) => column.notNull())
        .execute();
    },
  },
];

/**
 * The shared keys as sealed rows. Every read opens the row (nothing is cached: a rotation by
 * another node is seen at the next read). A name the table lacks but this node's credential
 * store holds is copied in on first read, so an installation that ran on one node keeps its
 * keys (runner registrations, tokens and URLs stay valid) when it becomes a cluster; the first
 * value written wins, so a node that joins later never replaces the cluster's.
 */
export function createSealedSharedKeys(options: { readonly database: Database; readonly key: ClusterKey; readonly local: CredentialStore; readonly clock: Clock }): SharedKeys {
  const { key, local, clock } = options;
  const db = sharedKeysDb(options.database);
  const readRow = async (name: string): Promise<string | undefined> =>
    (await db.selectFrom('svc_shared_keys').select('sealed').where('name', '=', name).executeTakeFirst())?.sealed;

  const keys: SharedKeys = {
    kind: 'shared',
    persistent: true,
    shared: true,
    async get(name) {
      const sealed = await readRow(name);
      if (sealed !== undefined) return openValue(key, name, sealed);
      const before = await local.get(name);
      return before === undefined ? undefined : keys.compareAndSet(name, undefined, before);
    },
    async set(name, value) {
      const sealed = sealValue(key, name, value);
      await db
        .insertInto('svc_shared_keys')
        .values({ name, sealed, updated_at: clock.now() })
        .onConflict((oc) => oc.column('name').doUpdateSet({ sealed, updated_at: clock.now() }))
        .execute();
    },
    async delete(name) {
      const result = await db.deleteFrom('svc_shared_keys').where('name', '=', name).executeTakeFirst();
      return Number(result.numDeletedRows) > 0;
    },
    async compareAndSet(name, expected, value) {
      const sealed = sealValue(key, name, value);
      if (expected === undefined) {
        await db
          .insertInto('svc_shared_keys')
          .values({ name, sealed, updated_at: clock.now() })
          .onConflict((oc) => oc.column('name').doNothing())
          .execute();
      } else {
        // Sealing is randomised, so "still holds `expected`" is "still holds the row we opened".
        const seen = await readRow(name);
        if (seen !== undefined && openValue(key, name, seen) === expected) {
          await db.updateTable('svc_shared_keys').set({ sealed, updated_at: clock.now() }).where('name', '=', name).where('sealed', '=', seen).execute();
        }
      }
      const kept = await readRow(name);
      return kept === undefined ? undefined : openValue(key, name, kept);
    },
  };
  return keys;
}
