import assert from 'node:assert/strict';
import { Readable } from 'node:stream';
import { describe, test, type TestContext } from 'node:test';
import { sql } from 'kysely';
import { ConfigError, createSilentLogger, UnavailableError, type BlobBackendInstance, type Store } from '../../core/kernel/index.js';
import { postgresBlobs, postgresStore } from '../../backends/postgres/index.js';
import { sqliteStore } from '../../backends/sqlite/index.js';
import { ManualClock } from '../../test/support/manual-clock.js';
import { onCleanup, postgresSchemaUrl, requireService, tempDir } from '../../test/support/services.js';
import { blobSuite } from './blob-suite.js';

const service = await requireService('postgres');
const skip = service.skip;
const baseUrl = service.url ?? '';
const SIGNING_KEY = 'test-signing-key-0123456789abcdef';

interface Node {
  readonly store: Store;
  readonly blobs: BlobBackendInstance;
}

/** One node's view of a schema: its own pool (store) and blob backend on it. */
async function openNode(t: TestContext, url: string, clock: ManualClock): Promise<Node> {
  const logger = createSilentLogger();
  const store = await postgresStore.create({ logger, clock, dataDir: '/nonexistent', url });
  onCleanup(t, () => store.database.close());
  const blobs = await postgresBlobs.create({ logger, clock, dataDir: '/nonexistent', url, signingKey: SIGNING_KEY, store });
  return { store, blobs };
}

async function readAll(stream: Readable | undefined): Promise<Buffer | undefined> {
  if (stream === undefined) return undefined;
  const chunks: Buffer[] = [];
  for await (const chunk of stream as AsyncIterable<Buffer>) chunks.push(chunk);
  return Buffer.concat(chunks);
}

blobSuite(
  'postgres',
  async (t) => {
    const clock = new ManualClock();
    const { blobs } = await openNode(t, postgresSchemaUrl(t, baseUrl).url, clock);
    return { blobs, clock };
  },
  { skip },
);

describe('postgres blobs: shared, chunked, checked', { skip }, () => {
  test('a blob written through one node is read whole through another', async (t) => {
    const { url } = postgresSchemaUrl(t, baseUrl);
    const clock = new ManualClock();
    const a = await openNode(t, url, clock);
    const b = await openNode(t, url, clock);
    const data = Buffer.alloc(2 * 1024 * 1024 + 5, 0xab);
    await a.blobs.store.put('logs/run-1/job-1.log', data);
    assert.deepEqual(await readAll(await b.blobs.store.get('logs/run-1/job-1.log')), data);
    assert.equal(await b.blobs.store.delete('logs/run-1/job-1.log'), true);
    assert.equal(await a.blobs.store.stat('logs/run-1/job-1.log'), undefined);
  });

  test('a replaced or deleted blob leaves no chunks, and a failed put leaves no upload behind', async (t) => {
    const { store, blobs } = await openNode(t, postgresSchemaUrl(t, baseUrl).url, new ManualClock());
    await blobs.store.put('cache/a', Buffer.alloc(3 * 1024 * 1024, 1));
    await blobs.store.put('cache/a', Buffer.alloc(1024 * 1024 + 1, 2));
    const counts = async (): Promise<{ chunks: number; uploads: number }> => {
      const result = await sql<{ chunks: number; uploads: number }>`
        select (select count(*) from svc_blob_chunks)::int8 as chunks, (select count(*) from svc_blob_uploads)::int8 as uploads`.execute(store.database.kysely);
      return result.rows[0] ?? { chunks: -1, uploads: -1 };
    };
    assert.deepEqual(await counts(), { chunks: 2, uploads: 0 });
    await assert.rejects(
      blobs.store.put(
        'cache/a',
        Readable.from(
          (async function* () {
            yield Buffer.alloc(1024 * 1024 + 10, 3);
            throw new Error('upload cut');
          })(),
        ),
      ),
      /upload cut/,
    );
    assert.deepEqual(await counts(), { chunks: 2, uploads: 0 });
    await blobs.store.delete('cache/a');
    assert.deepEqual(await counts(), { chunks: 0, uploads: 0 });
  });

  test('a missing chunk is an error naming the blob, never a short read', async (t) => {
    const { store, blobs } = await openNode(t, postgresSchemaUrl(t, baseUrl).url, new ManualClock());
    await blobs.store.put('artifacts/run-1/out.zip', Buffer.alloc(3 * 1024 * 1024, 9));
    await sql`delete from svc_blob_chunks where idx = 1`.execute(store.database.kysely);
    await assert.rejects(
      blobs.store.get('artifacts/run-1/out.zip'),
      (error: unknown) =>
        error instanceof UnavailableError && error.code === 'blob_incomplete' && error.message.includes('artifacts/run-1/out.zip') && /2 of its 3 parts/.test(error.message),
    );
  });

  test('a chunk removed while the blob is read fails the stream naming the blob', async (t) => {
    const { store, blobs } = await openNode(t, postgresSchemaUrl(t, baseUrl).url, new ManualClock());
    await blobs.store.put('cache/b', Buffer.alloc(3 * 1024 * 1024, 4));
    const stream = await blobs.store.get('cache/b');
    assert.ok(stream !== undefined);
    await sql`delete from svc_blob_chunks where idx = 2`.execute(store.database.kysely);
    await assert.rejects(readAll(stream), (error: unknown) => error instanceof UnavailableError && error.code === 'blob_incomplete' && error.message.includes('cache/b'));
  });

  test('puts that died long ago are swept', async (t) => {
    const clock = new ManualClock();
    const { store, blobs } = await openNode(t, postgresSchemaUrl(t, baseUrl).url, clock);
    const db = store.database.kysely;
    await sql`insert into svc_blob_uploads (generation, key, started_at) values ('dead', 'cache/x', ${clock.now()})`.execute(db);
    await sql`insert into svc_blob_chunks (generation, idx, data) values ('dead', 0, ${Buffer.from('left over')})`.execute(db);
    clock.advance(25 * 60 * 60 * 1000);
    await blobs.store.put('cache/y', Buffer.from('y'));
    const left = await sql<{ n: number }>`select count(*)::int8 as n from svc_blob_chunks where generation = 'dead'`.execute(db);
    assert.equal(left.rows[0]?.n, 0);
  });

  test('a list longer than a page comes whole and in byte order, from a range of the primary key', async (t) => {
    const { store, blobs } = await openNode(t, postgresSchemaUrl(t, baseUrl).url, new ManualClock());
    const db = store.database.kysely;
    await sql`
      insert into svc_blobs (key, generation, size, chunks, modified_at)
      select 'logs/run-' || n, 'g' || n, 0, 0, 0 from generate_series(1, 1203) as n`.execute(db);
    await sql`insert into svc_blobs (key, generation, size, chunks, modified_at) values ('logs/run_x', 'gx', 0, 0, 0), ('logsX', 'gy', 0, 0, 0)`.execute(db);
    const listed: string[] = [];
    for await (const info of blobs.store.list('logs/run-')) listed.push(info.key);
    const expected = Array.from({ length: 1203 }, (_, i) => `logs/run-${i + 1}`).sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
    assert.deepEqual(listed, expected);
    const collation = await sql<{ collation: string | null }>`
      select collation_name as collation from information_schema.columns
      where table_schema = current_schema() and table_name = 'svc_blobs' and column_name = 'key'`.execute(db);
    assert.equal(collation.rows[0]?.collation, 'C', 'keys compare bytewise whatever the database collation');
    // With sequential scans priced out, the plan shows whether the primary key can serve the range.
    const plan = await db.transaction().execute(async (tx) => {
      await sql`set local enable_seqscan = off`.execute(tx);
      return sql<{ 'QUERY PLAN': string }>`
        explain select key from svc_blobs where key >= ${'logs/run-1'} and key < ${'logs/run-1~'} order by key limit 500`.execute(tx);
    });
    assert.match(plan.rows.map((row) => row['QUERY PLAN']).join('\n'), /Index (Only )?Scan/);
  });

  test('without the PostgreSQL store the backend refuses to start, naming what to set', async (t) => {
    const clock = new ManualClock();
    const dataDir = await tempDir(t);
    const store = await sqliteStore.create({ logger: createSilentLogger(), clock, dataDir });
    onCleanup(t, () => store.database.close());
    const context = { logger: createSilentLogger(), clock, dataDir, signingKey: SIGNING_KEY };
    await assert.rejects(postgresBlobs.create(context), (error: unknown) => error instanceof ConfigError && /SVC_DATABASE_URL/.test(error.message));
    await assert.rejects(postgresBlobs.create({ ...context, store }), ConfigError);
  });
});
