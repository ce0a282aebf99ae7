/**
 * What every store backend must do with migrations and transactions. Registered once per
 * backend by its `*.test.ts`; the factory gives each test a fresh, private database.
 */
import assert from 'node:assert/strict';
import { describe, test, type TestContext } from 'node:test';
import { sql } from 'kysely';
import type { Store } from '../../core/kernel/index.js';
import type { AnyKysely, Migration } from '../../core/ports/index.js';
import type { ManualClock } from '../../test/support/manual-clock.js';

export interface StoreHarness {
  readonly store: Store;
  readonly clock: ManualClock;
  /** Another store on the same database with its own connection(s): a second node. */
  openPeer(): Promise<Store>;
}

export type StoreHarnessFactory = (t: TestContext) => Promise<StoreHarness>;

export interface SuiteOptions {
  readonly skip?: string | false;
}

async function tableNames(db: AnyKysely): Promise<string[]> {
  const tables = await db.introspection.getTables();
  return tables.map((table) => table.name);
}

async function count(db: AnyKysely, table: string): Promise<number> {
  const result = await sql<{ n: number | string }>`select count(*) as n from ${sql.table(table)}`.execute(db);
  return Number(result.rows[0]?.n);
}

const createNotes: Migration = {
  name: '001_notes',
  up: async (db) => {
    await db.schema
      .createTable('notes')
      .addColumn('id', 'integer', (c) => c.primaryKey())
      .addColumn('body', 'text', (c) => c.notNull())
      .execute();
  },
};
const addAuthor: Migration = {
  name: '002_notes_author',
  up: async (db) => {
    await db.schema.alterTable('notes').addColumn('author', 'text').execute();
  },
};
const seedNote: Migration = {
  name: '003_seed',
  up: async (db) => {
    // Depends on 002: fails unless the migrations ran in order.
    await sql`insert into notes (id, body, author) values (1, 'hello', 'ada')`.execute(db);
  },
};

function counting(migration: Migration, calls: string[]): Migration {
  return { name: migration.name, up: async (db) => (calls.push(migration.name), migration.up(db)) };
}

export function storeSuite(name: string, factory: StoreHarnessFactory, options: SuiteOptions = {}): void {
  const skip = options.skip ?? false;

  describe(`${name} store: migrations`, { skip }, () => {
    test('applies pending migrations in order and reports each one', async (t) => {
      const { store } = await factory(t);
      const report = await store.migrator.migrate('notes-plugin', [createNotes, addAuthor, seedNote]);
      assert.equal(report.error, undefined);
      assert.equal(report.owner, 'notes-plugin');
      assert.deepEqual(report.results, [
        { name: '001_notes', status: 'applied' },
        { name: '002_notes_author', status: 'applied' },
        { name: '003_seed', status: 'applied' },
      ]);
      const rows = await sql<{ body: string; author: string }>`select body, author from notes`.execute(store.database.kysely);
      assert.deepEqual(rows.rows, [{ body: 'hello', author: 'ada' }]);
    });

    test('a second run applies nothing; a new migration is applied alone', async (t) => {
      const { store } = await factory(t);
      const calls: string[] = [];
      await store.migrator.migrate('notes-plugin', [createNotes, addAuthor].map((m) => counting(m, calls)));
      const again = await store.migrator.migrate('notes-plugin', [createNotes, addAuthor].map((m) => counting(m, calls)));
      assert.equal(again.error, undefined);
      assert.deepEqual(again.results, []);
      const next = await store.migrator.migrate('notes-plugin', [createNotes, addAuthor, seedNote].map((m) => counting(m, calls)));
      assert.deepEqual(next.results, [{ name: '003_seed', status: 'applied' }]);
      assert.deepEqual(calls, ['001_notes', '002_notes_author', '003_seed']);
    });

    test('a failing migration is reported, not thrown, and its run is rolled back', async (t) => {
      const { store } = await factory(t);
      await store.migrator.migrate('notes-plugin', [createNotes]);
      const broken: Migration = {
        name: '003_broken',
        up: async (db) => {
          await sql`insert into notes (id, body) values (7, 'partial')`.execute(db);
          throw new Error('migration exploded');
        },
      };
      const report = await store.migrator.migrate('notes-plugin', [createNotes, addAuthor, broken]);
      assert.ok(report.error instanceof Error);
      assert.match(report.error.message, /notes-plugin.*003_broken.*migration exploded/);
      assert.deepEqual(report.results, [
        { name: '002_notes_author', status: 'not_executed' },
        { name: '003_broken', status: 'failed' },
      ]);
      const db = store.database.kysely;
      assert.equal(await count(db, 'notes'), 0, 'the failed migration left rows behind');
      const columns = (await db.introspection.getTables()).find((table) => table.name === 'notes')?.columns.map((c) => c.name);
      assert.deepEqual(columns?.sort(), ['body', 'id'], 'the run was not rolled back');

      const fixed = await store.migrator.migrate('notes-plugin', [createNotes, addAuthor, seedNote]);
      assert.equal(fixed.error, undefined);
      assert.deepEqual(fixed.results.map((r) => r.status), ['applied', 'applied']);
    });

    test('a removed or reordered past migration is an error, and nothing runs', async (t) => {
      const { store } = await factory(t);
      await store.migrator.migrate('notes-plugin', [createNotes, addAuthor]);
      const calls: string[] = [];
      const removed = await store.migrator.migrate('notes-plugin', [counting(addAuthor, calls), counting(seedNote, calls)]);
      assert.ok(removed.error instanceof Error);
      assert.match(removed.error.message, /001_notes/);
      assert.deepEqual(removed.results, []);

      const early: Migration = { name: '000_early', up: async () => undefined };
      const inserted = await store.migrator.migrate('notes-plugin', [counting(early, calls), createNotes, addAuthor]);
      assert.ok(inserted.error instanceof Error, 'a new migration sorting before applied ones must be refused');
      assert.deepEqual(calls, []);
    });

    test('owners keep separate histories; bad input is reported, not thrown', async (t) => {
      const { store } = await factory(t);
      const mark = (table: string): Migration => ({
        name: '001_init',
        up: async (db) => {
          await db.schema.createTable(table).addColumn('id', 'integer').execute();
        },
      });
      const a = await store.migrator.migrate('plugin-a', [mark('table_a')]);
      const b = await store.migrator.migrate('plugin-b', [mark('table_b')]);
      assert.deepEqual([a.results, b.results], [[{ name: '001_init', status: 'applied' }], [{ name: '001_init', status: 'applied' }]]);
      const names = await tableNames(store.database.kysely);
      assert.ok(names.includes('table_a') && names.includes('table_b'));

      const badOwner = await store.migrator.migrate('Bad Owner', [mark('never')]);
      assert.match(String(badOwner.error?.message), /Bad Owner/);
      const unsorted = await store.migrator.migrate('plugin-c', [addAuthor, createNotes]);
      assert.match(String(unsorted.error?.message), /name order/);
      assert.ok(!(await tableNames(store.database.kysely)).includes('never'));
    });
  });

  describe(`${name} store: transactions`, { skip }, () => {
    const setUp = async (t: TestContext): Promise<StoreHarness> => {
      const harness = await factory(t);
      const report = await harness.store.migrator.migrate('notes-plugin', [createNotes]);
      assert.equal(report.error, undefined);
      return harness;
    };

    test('a committed transaction is visible to this node and to another', async (t) => {
      const { store, openPeer } = await setUp(t);
      await store.database.kysely.transaction().execute(async (trx) => {
        await sql`insert into notes (id, body) values (1, 'one'), (2, 'two')`.execute(trx);
      });
      assert.equal(await count(store.database.kysely, 'notes'), 2);
      const peer = await openPeer();
      assert.equal(await count(peer.database.kysely, 'notes'), 2);
    });

    test('a rolled-back transaction leaves nothing and its error reaches the caller', async (t) => {
      const { store, openPeer } = await setUp(t);
      await assert.rejects(
        store.database.kysely.transaction().execute(async (trx) => {
          await sql`insert into notes (id, body) values (1, 'one')`.execute(trx);
          assert.equal(await count(trx, 'notes'), 1, 'the transaction sees its own write');
          throw new Error('changed my mind');
        }),
        /changed my mind/,
      );
      assert.equal(await count(store.database.kysely, 'notes'), 0);
      const peer = await openPeer();
      assert.equal(await count(peer.database.kysely, 'notes'), 0);
    });

    test('ping answers while the store is open', async (t) => {
      const { store } = await factory(t);
      await store.database.ping();
      assert.equal(typeof store.database.capabilities.dialectName, 'string');
    });
  });
}
