import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test, type TestContext } from 'node:test';
import { sql } from 'kysely';
import { createSilentLogger, type BackendContext, type Store } from '../../core/kernel/index.js';
import { inProcessNotifier, sqliteStore } from '../../backends/sqlite/index.js';
import { ManualClock } from '../../test/support/manual-clock.js';
import { onCleanup, tempDir } from '../../test/support/services.js';
import { leaseSuite } from './lease-suite.js';
import { notifierSuite } from './notifier-suite.js';
import { storeSuite, type StoreHarness } from './store-suite.js';

async function open(t: TestContext, context: BackendContext): Promise<Store> {
  const store = await sqliteStore.create(context);
  onCleanup(t, () => store.database.close());
  return store;
}

/** A file database in the test's own data dir; the peer is a second connection to the same file. */
async function sqliteHarness(t: TestContext): Promise<StoreHarness> {
  const context: BackendContext = { logger: createSilentLogger(), clock: new ManualClock(), dataDir: await tempDir(t) };
  const store = await open(t, context);
  return { store, clock: context.clock as ManualClock, openPeer: () => open(t, context) };
}

storeSuite('sqlite', sqliteHarness);
leaseSuite('sqlite', sqliteHarness);
notifierSuite('in-process', async (t) => {
  const notifier = await inProcessNotifier.create({ logger: createSilentLogger(), clock: new ManualClock(), dataDir: await tempDir(t) });
  onCleanup(t, () => notifier.close());
  return { notifier };
});

describe('sqlite store: setup', () => {
  test('lives in <dataDir>/svc.db with WAL, busy timeout, foreign keys and NORMAL sync', async (t) => {
    const dataDir = join(await tempDir(t), 'not-yet-created');
    const store = await open(t, { logger: createSilentLogger(), clock: new ManualClock(), dataDir });
    assert.ok(existsSync(join(dataDir, 'svc.db')));
    const db = store.database.kysely;
    const pragma = async (name: string): Promise<unknown> => {
      const result = await sql<Record<string, unknown>>`select * from ${sql.raw(`pragma_${name}`)}`.execute(db);
      return Object.values(result.rows[0] ?? {})[0];
    };
    assert.equal(await pragma('journal_mode'), 'wal');
    assert.equal(await pragma('busy_timeout'), 5000);
    assert.equal(await pragma('foreign_keys'), 1);
    assert.equal(await pragma('synchronous'), 1);
    assert.deepEqual(store.database.capabilities, { skipLocked: false, rowLocks: false, multiNode: false, dialectName: 'sqlite' });
  });

  test('accepts sqlite::memory:, sqlite:///absolute and sqlite:relative URLs', async (t) => {
    const dataDir = await tempDir(t);
    const context = { logger: createSilentLogger(), clock: new ManualClock(), dataDir };
    const memory = await open(t, { ...context, url: 'sqlite::memory:' });
    await memory.database.ping();
    assert.ok(!existsSync(join(dataDir, 'svc.db')));

    await open(t, { ...context, url: `sqlite://${join(dataDir, 'abs.db')}` });
    assert.ok(existsSync(join(dataDir, 'abs.db')));
    await open(t, { ...context, url: 'sqlite:nested/rel.db' });
    assert.ok(existsSync(join(dataDir, 'nested', 'rel.db')));
    await assert.rejects(sqliteStore.create({ ...context, url: 'postgres://localhost/x' }), { code: 'config_invalid' });
  });

  test('foreign keys are enforced', async (t) => {
    const dataDir = await tempDir(t);
    const store = await open(t, { logger: createSilentLogger(), clock: new ManualClock(), dataDir });
    const report = await store.migrator.migrate('fk-test', [
      {
        name: '001',
        up: async (db) => {
          await db.schema.createTable('parent').addColumn('id', 'integer', (c) => c.primaryKey()).execute();
          await db.schema
            .createTable('child')
            .addColumn('id', 'integer', (c) => c.primaryKey())
            .addColumn('parent_id', 'integer', (c) => c.notNull().references('parent.id'))
            .execute();
        },
      },
    ]);
    assert.equal(report.error, undefined);
    await assert.rejects(sql`insert into child (id, parent_id) values (1, 42)`.execute(store.database.kysely), /FOREIGN KEY/);
  });
});
