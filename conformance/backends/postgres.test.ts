import assert from 'node:assert/strict';
import { setTimeout as delay } from 'node:timers/promises';
import { describe, test, type TestContext } from 'node:test';
import { sql } from 'kysely';
import pg from 'pg';
import { ConfigError, createSilentLogger, type BackendContext, type Store } from '../../core/kernel/index.js';
import type { Notifier } from '../../core/ports/index.js';
import { createPostgresNotifier, postgresNotifier, postgresStore } from '../../backends/postgres/index.js';
import { ManualClock } from '../../test/support/manual-clock.js';
import { onCleanup, postgresSchemaUrl, requireService, uniqueName } from '../../test/support/services.js';
import { leaseSuite } from './lease-suite.js';
import { notifierSuite } from './notifier-suite.js';
import { storeSuite, type StoreHarness } from './store-suite.js';

const service = await requireService('postgres');
const skip = service.skip;
const baseUrl = service.url ?? '';

function context(url: string): BackendContext {
  return { logger: createSilentLogger(), clock: new ManualClock(), dataDir: '/nonexistent', url };
}

async function openStore(t: TestContext, backendContext: BackendContext): Promise<Store> {
  const store = await postgresStore.create(backendContext);
  onCleanup(t, () => store.database.close());
  return store;
}

async function openNotifier(t: TestContext, url: string): Promise<Notifier> {
  const notifier = await postgresNotifier.create(context(url));
  onCleanup(t, () => notifier.close());
  return notifier;
}

/** A private schema; the peer is a second pool on it, so claims race for real. */
async function postgresHarness(t: TestContext): Promise<StoreHarness> {
  const shared = context(postgresSchemaUrl(t, baseUrl).url);
  const store = await openStore(t, shared);
  return { store, clock: shared.clock as ManualClock, openPeer: () => openStore(t, shared) };
}

storeSuite('postgres', postgresHarness, { skip });
leaseSuite('postgres', postgresHarness, { skip });
notifierSuite(
  'postgres LISTEN/NOTIFY',
  async (t) => {
    const { url } = postgresSchemaUrl(t, baseUrl);
    return { notifier: await openNotifier(t, url), openPeer: () => openNotifier(t, url) };
  },
  { skip },
);

describe('postgres backends: setup', { skip }, () => {
  test('a missing URL is a configuration error naming the variable', async () => {
    const { url: _url, ...withoutUrl } = context('');
    await assert.rejects(postgresStore.create(withoutUrl), (error: unknown) => error instanceof ConfigError && /SVC_DATABASE_URL/.test(error.message));
    await assert.rejects(postgresNotifier.create(withoutUrl), (error: unknown) => error instanceof ConfigError);
    await assert.rejects(postgresStore.create(context('mysql://localhost/x')), (error: unknown) => error instanceof ConfigError);
  });

  test('creates the schema it is given and keeps its tables there', async (t) => {
    const { url, schema } = postgresSchemaUrl(t, baseUrl);
    const store = await openStore(t, context(url));
    assert.deepEqual(store.database.capabilities, { skipLocked: true, rowLocks: true, multiNode: true, dialectName: 'postgres' });
    const report = await store.migrator.migrate('schema-test', [
      { name: '001', up: async (db) => void (await db.schema.createTable('things').addColumn('n', 'bigint').execute()) },
    ]);
    assert.equal(report.error, undefined);
    const tables = await sql<{ table_name: string }>`
      select table_name from information_schema.tables where table_schema = ${schema} order by table_name`.execute(store.database.kysely);
    assert.deepEqual(tables.rows.map((row) => row.table_name), ['svc_migrations_schema_test', 'svc_migrations_schema_test_lock', 'things']);
  });

  test('int8 columns come back as numbers, without touching the global pg parser', async (t) => {
    const store = await openStore(t, context(postgresSchemaUrl(t, baseUrl).url));
    const result = await sql<{ big: unknown; count: unknown }>`select 1893456000000::int8 as big, count(*) as count from pg_class`.execute(store.database.kysely);
    assert.equal(result.rows[0]?.big, 1893456000000);
    assert.equal(typeof result.rows[0]?.count, 'number');
    assert.equal(typeof pg.types.getTypeParser(20, 'text')('5'), 'string');
    await assert.rejects(sql`select 9007199254740993::int8 as too_big`.execute(store.database.kysely), /does not fit/);
  });

  test('notifications stay inside their schema', async (t) => {
    const a = await openNotifier(t, postgresSchemaUrl(t, baseUrl).url);
    const b = await openNotifier(t, postgresSchemaUrl(t, baseUrl).url);
    const heard: string[] = [];
    await b.subscribe('jobs.queued', (payload) => heard.push(payload));
    const own: string[] = [];
    await a.subscribe('jobs.queued', (payload) => own.push(payload));
    await a.notify('jobs.queued', 'for-a-only');
    for (let i = 0; i < 250 && own.length === 0; i += 1) await delay(20);
    assert.deepEqual(own, ['for-a-only']);
    assert.deepEqual(heard, []);
  });

  test('the LISTEN connection comes back after it is cut, and LISTENs again', async (t) => {
    const { url } = postgresSchemaUrl(t, baseUrl);
    const applicationName = uniqueName('svc-test-listen-');
    const notifier = await createPostgresNotifier(context(url), { applicationName });
    onCleanup(t, () => notifier.close());
    const heard: string[] = [];
    await notifier.subscribe('jobs.queued', (payload) => heard.push(payload));

    const admin = new pg.Client({ connectionString: baseUrl });
    await admin.connect();
    onCleanup(t, () => admin.end());
    const cut = await admin.query('select pg_terminate_backend(pid) from pg_stat_activity where application_name = $1', [applicationName]);
    assert.equal(cut.rowCount, 1, 'the listening connection was found');

    // Notifications sent while it is down are lost by design; keep sending until one arrives.
    const deadline = Date.now() + 10_000;
    while (!heard.includes('after-cut') && Date.now() < deadline) {
      await notifier.notify('jobs.queued', 'after-cut');
      await delay(100);
    }
    assert.ok(heard.includes('after-cut'), `no notification after reconnect (heard ${JSON.stringify(heard)})`);
    assert.ok(heard.includes(''), 'listeners get one empty wake-up after a reconnect');
  });
});
