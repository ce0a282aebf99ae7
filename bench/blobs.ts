// `npm run bench:blobs`: write and read throughput of the blob stores on this machine, for one
// BENCH_BLOB_MB (default 256) MiB blob streamed in 1 MiB pieces (random bytes, so PostgreSQL's
// storage gets nothing for free): the filesystem store under a local temp dir (the single-node
// default), the same store in a shared directory (SVC_BLOB_DIR when set, e.g. an NFS mount; else
// a second local temp dir, which then measures the same disk), and the PostgreSQL store
// (SVC_BENCH_POSTGRES_URL, else SVC_TEST_POSTGRES_URL, else SVC_DATABASE_URL; in a schema of its
// own, dropped afterwards). Prints MiB/s and each store's ratio to the local filesystem (1.0 =
// as fast). Asserts nothing but that the bytes came back.
import { randomBytes, randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import pg from 'pg';
import { createSilentLogger, type BlobBackendInstance, type Store } from '../core/kernel/index.js';
import { filesystemBlobs } from '../backends/fs-blobs/index.js';
import { postgresBlobs, postgresStore } from '../backends/postgres/index.js';
import type { BlobStore } from '../core/ports/index.js';
import { ManualClock } from '../test/support/manual-clock.js';

const MIB = 1024 * 1024;
const BLOB_MB = Number(process.env['BENCH_BLOB_MB'] ?? 256);
const SIGNING_KEY = randomBytes(32).toString('hex');
const PIECE = randomBytes(MIB);

function source(mib: number): Readable {
  return Readable.from(
    (function* () {
      for (let i = 0; i < mib; i += 1) {
        // A fresh copy per piece with its index in front, so no two pieces are alike.
        const piece = Buffer.from(PIECE);
        piece.writeUInt32BE(i, 0);
        yield piece;
      }
    })(),
    { objectMode: false, highWaterMark: MIB },
  );
}

interface Figures {
  readonly writeMiBs: number;
  readonly readMiBs: number;
}

async function measure(store: BlobStore): Promise<Figures> {
  await store.put('bench/warm-up', source(4)); // connections, tables, directories
  const key = `bench/${randomUUID()}`;
  let started = performance.now();
  const info = await store.put(key, source(BLOB_MB));
  const writeMs = performance.now() - started;
  if (info.size !== BLOB_MB * MIB) throw new Error(`${store.kind}: wrote ${info.size} bytes, expected ${BLOB_MB * MIB}`);
  started = performance.now();
  const stream = await store.get(key);
  if (stream === undefined) throw new Error(`${store.kind}: the blob just written is missing`);
  let read = 0;
  for await (const chunk of stream as AsyncIterable<Buffer>) read += chunk.length;
  const readMs = performance.now() - started;
  if (read !== BLOB_MB * MIB) throw new Error(`${store.kind}: read ${read} bytes, expected ${BLOB_MB * MIB}`);
  await store.delete(key);
  await store.delete('bench/warm-up');
  return { writeMiBs: BLOB_MB / (writeMs / 1000), readMiBs: BLOB_MB / (readMs / 1000) };
}

async function filesystem(directory: string | undefined, dataDir: string): Promise<BlobBackendInstance> {
  return filesystemBlobs.create({
    logger: createSilentLogger(),
    clock: new ManualClock(Date.now()),
    dataDir,
    signingKey: SIGNING_KEY,
    ...(directory === undefined ? {} : { directory }),
  });
}

async function withPostgres(baseUrl: string, fn: (blobs: BlobBackendInstance) => Promise<Figures>): Promise<Figures> {
  const schema = `svc_bench_${randomUUID().replaceAll('-', '').slice(0, 12)}`;
  const url = new URL(baseUrl);
  url.searchParams.set('schema', schema);
  const clock = new ManualClock(Date.now());
  let store: Store | undefined;
  try {
    store = await postgresStore.create({ logger: createSilentLogger(), clock, dataDir: tmpdir(), url: url.toString() });
    const blobs = await postgresBlobs.create({ logger: createSilentLogger(), clock, dataDir: tmpdir(), url: url.toString(), signingKey: SIGNING_KEY, store });
    return await fn(blobs);
  } finally {
    await store?.database.close();
    const admin = new pg.Client({ connectionString: baseUrl });
    await admin.connect();
    await admin.query(`drop schema if exists "${schema}" cascade`).finally(() => admin.end());
  }
}

function line(name: string, figures: Figures, local: Figures): string {
  const ratio = (value: number, base: number): string => (value / base).toFixed(2);
  return `${name.padEnd(34)} write ${figures.writeMiBs.toFixed(0).padStart(6)} MiB/s (x${ratio(figures.writeMiBs, local.writeMiBs)})   read ${figures.readMiBs
    .toFixed(0)
    .padStart(6)} MiB/s (x${ratio(figures.readMiBs, local.readMiBs)})`;
}

async function main(): Promise<void> {
  const scratch = mkdtempSync(join(tmpdir(), 'svc-bench-blobs-'));
  try {
    console.log(`blob stores, one ${BLOB_MB} MiB blob streamed in and out (ratios against the local filesystem store)`);
    const local = await measure((await filesystem(undefined, join(scratch, 'local'))).store);
    console.log(line('filesystem (<data dir>/blobs)', local, local));
    const sharedDir = process.env['SVC_BLOB_DIR'];
    const shared = await measure((await filesystem(sharedDir ?? join(scratch, 'shared'), join(scratch, 'node'))).store);
    console.log(line(sharedDir === undefined ? 'shared directory (local temp dir)' : `shared directory (${sharedDir})`, shared, local));
    const postgresUrl = process.env['SVC_BENCH_POSTGRES_URL'] ?? process.env['SVC_TEST_POSTGRES_URL'] ?? process.env['SVC_DATABASE_URL'];
    if (postgresUrl === undefined || !postgresUrl.startsWith('postgres')) {
      console.log('postgres: skipped (set SVC_BENCH_POSTGRES_URL=postgres://user@host:5432/db)');
      return;
    }
    const figures = await withPostgres(postgresUrl, async (blobs) => measure(blobs.store));
    console.log(line('postgres (1 MiB bytea chunks)', figures, local));
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

await main();
