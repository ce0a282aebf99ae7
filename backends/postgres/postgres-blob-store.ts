import { randomUUID } from 'node:crypto';
import { Readable } from 'node:stream';
import { sql } from 'kysely';
import { UnavailableError } from '../../core/kernel/index.js';
import type { AnyKysely, BlobInfo, BlobStore, Clock } from '../../core/ports/index.js';
import { assertBlobKey, assertBlobPrefix } from '../fs-blobs/index.js';

/** Bytes per chunk row: big enough that per-row overhead is small, small enough to stream. */
export const BLOB_CHUNK_BYTES = 1024 * 1024;
/** A put that has not committed after this long is taken for dead and its chunks removed. */
const STALE_UPLOAD_MS = 24 * 60 * 60 * 1000;
const SWEEP_EVERY_MS = 60 * 60 * 1000;
const LIST_PAGE = 500;
/**
 * Chunk statements one stream keeps in flight, each on its own pooled connection: a chunk's
 * round trip (hex encoding, TOAST) overlaps the next one's. Also the most chunks a put or get
 * holds in memory at once, whatever the blob's size.
 */
const PIPELINE = 3;
/** First half of the advisory lock key taken per blob key while its row is switched. */
const LOCK_SPACE = 0x5bb0b;

export interface PostgresBlobStoreOptions {
  readonly db: AnyKysely;
  readonly clock: Clock;
  /** Test hook; default 1 MiB. */
  readonly chunkBytes?: number;
}

interface BlobRow {
  readonly key: string;
  readonly generation: string;
  readonly size: number;
  readonly chunks: number;
  readonly modified_at: number;
}

/**
 * Blobs in PostgreSQL, so every node sharing the database reads what any node wrote. A put
 * streams its bytes into chunk rows under a fresh generation id (one row per chunk, each its own
 * statement, so no transaction or whole blob is held), then switches the key's row to that
 * generation in one short transaction and deletes the old generation's chunks: readers see the
 * old blob or the new one, never a mix. A get checks the generation is whole, then reads it a
 * few chunks ahead of the consumer (PIPELINE). Tables: blob-migrations.ts.
 */
export function createPostgresBlobStore(options: PostgresBlobStoreOptions): BlobStore {
  const { db, clock } = options;
  const chunkBytes = options.chunkBytes ?? BLOB_CHUNK_BYTES;
  let lastSweep = 0;

  const row = async (key: string): Promise<BlobRow | undefined> => {
    const result = await sql<BlobRow>`select key, generation, size, chunks, modified_at from svc_blobs where key = ${key}`.execute(db);
    return result.rows[0];
  };
  const info = (blob: BlobRow): BlobInfo => ({ key: blob.key, size: blob.size, modifiedAt: blob.modified_at });

  const store: BlobStore = {
    kind: 'postgres',

    async put(key, data) {
      assertBlobKey(key);
      await sweepStaleUploads();
      const generation = randomUUID();
      await sql`insert into svc_blob_uploads (generation, key, started_at) values (${generation}, ${key}, ${clock.now()})`.execute(db);
      let written: { size: number; chunks: number };
      try {
        written = await writeChunks(generation, data);
      } catch (error) {
        await discard(generation);
        throw error;
      }
      const modifiedAt = clock.now();
      let previous: string | undefined;
      try {
        previous = await db.transaction().execute(async (tx) => {
          await lockKey(tx, key);
          const old = await sql<{ generation: string }>`select generation from svc_blobs where key = ${key}`.execute(tx);
          await sql`
            insert into svc_blobs (key, generation, size, chunks, modified_at)
            values (${key}, ${generation}, ${written.size}, ${written.chunks}, ${modifiedAt})
            on conflict (key) do update set generation = excluded.generation, size = excluded.size,
              chunks = excluded.chunks, modified_at = excluded.modified_at`.execute(tx);
          await sql`delete from svc_blob_uploads where generation = ${generation}`.execute(tx);
          return old.rows[0]?.generation;
        });
      } catch (error) {
        await discard(generation);
        throw error;
      }
      if (previous !== undefined) await deleteChunks(previous);
      return { key, size: written.size, modifiedAt };
    },

    async get(key) {
      assertBlobKey(key);
      const blob = await row(key);
      if (blob === undefined) return undefined;
      const stored = await sql<{ chunks: number; bytes: number }>`
        select count(*)::int8 as chunks, coalesce(sum(octet_length(data)), 0)::int8 as bytes
        from svc_blob_chunks where generation = ${blob.generation}`.execute(db);
      const { chunks = 0, bytes = 0 } = stored.rows[0] ?? {};
      if (chunks !== blob.chunks || bytes !== blob.size) {
        // Replaced or deleted between the two reads: the newer state answers.
        const now = await row(key);
        if (now === undefined) return undefined;
        if (now.generation !== blob.generation) return store.get(key);
        throw incomplete(key, `${chunks} of its ${blob.chunks} parts (${bytes} of ${blob.size} bytes) are in the database`);
      }
      return Readable.from(readChunks(blob), { objectMode: false, highWaterMark: 1 });
    },

    async stat(key) {
      assertBlobKey(key);
      const blob = await row(key);
      return blob === undefined ? undefined : info(blob);
    },

    async delete(key) {
      assertBlobKey(key);
      const generation = await db.transaction().execute(async (tx) => {
        await lockKey(tx, key);
        const deleted = await sql<{ generation: string }>`delete from svc_blobs where key = ${key} returning generation`.execute(tx);
        return deleted.rows[0]?.generation;
      });
      if (generation === undefined) return false;
      await deleteChunks(generation);
      return true;
    },

    async *list(prefix) {
      assertBlobPrefix(prefix);
      let after = '';
      for (;;) {
        // Byte order (the column's collation is "C"), as the filesystem store lists; keyset pages
        // of a primary-key range (`~` sorts after every character a key may hold), never all rows.
        const page = await sql<BlobRow>`
          select key, generation, size, chunks, modified_at from svc_blobs
          where key >= ${prefix} and key < ${`${prefix}~`} and key > ${after}
          order by key limit ${LIST_PAGE}`.execute(db);
        for (const blob of page.rows) yield info(blob);
        if (page.rows.length < LIST_PAGE) return;
        after = page.rows[page.rows.length - 1]?.key ?? after;
      }
    },
  };
  return store;

  async function writeChunks(generation: string, data: Buffer | Readable): Promise<{ size: number; chunks: number }> {
    let size = 0;
    let index = 0;
    const inFlight = new Set<Promise<void>>();
    let failure: { error: unknown } | undefined;
    const insert = async (bytes: Buffer): Promise<void> => {
      const statement = sql`insert into svc_blob_chunks (generation, idx, data) values (${generation}, ${index}, ${bytes})`
        .execute(db)
        .then(
          () => undefined,
          (error: unknown) => void (failure ??= { error }),
        )
        .finally(() => inFlight.delete(statement));
      inFlight.add(statement);
      index += 1;
      if (inFlight.size >= PIPELINE) await Promise.race(inFlight);
      if (failure !== undefined) throw failure.error;
    };
    try {
      const written = await writeAll(data, insert, (bytes) => (size += bytes));
      await Promise.all(inFlight);
      if (failure !== undefined) throw failure.error;
      return { size: written ?? size, chunks: index };
    } finally {
      // Whatever failed, no insert may land after the caller discards the generation.
      await Promise.all(inFlight);
    }
  }

  async function writeAll(data: Buffer | Readable, insert: (bytes: Buffer) => Promise<void>, count: (bytes: number) => void): Promise<number | undefined> {
    if (Buffer.isBuffer(data)) {
      for (let offset = 0; offset < data.length; offset += chunkBytes) await insert(data.subarray(offset, offset + chunkBytes));
      return data.length;
    }
    let pending: Buffer[] = [];
    let pendingBytes = 0;
    for await (const piece of data as AsyncIterable<Buffer | string | Uint8Array>) {
      const bytes = typeof piece === 'string' ? Buffer.from(piece) : Buffer.isBuffer(piece) ? piece : Buffer.from(piece.buffer, piece.byteOffset, piece.byteLength);
      pending.push(bytes);
      pendingBytes += bytes.length;
      count(bytes.length);
      while (pendingBytes >= chunkBytes) {
        const joined = pending.length === 1 ? (pending[0] as Buffer) : Buffer.concat(pending, pendingBytes);
        await insert(joined.subarray(0, chunkBytes));
        const rest = joined.subarray(chunkBytes);
        pending = rest.length === 0 ? [] : [rest];
        pendingBytes = rest.length;
      }
    }
    if (pendingBytes > 0) await insert(pending.length === 1 ? (pending[0] as Buffer) : Buffer.concat(pending, pendingBytes));
    return undefined;
  }

  /** Chunk `index` of a generation, never rejecting (a read ahead nobody awaits must not either). */
  function fetchChunk(generation: string, index: number): Promise<{ data: Buffer | undefined } | { error: unknown }> {
    return sql<{ data: Buffer }>`select data from svc_blob_chunks where generation = ${generation} and idx = ${index}`
      .execute(db)
      .then(
        (result) => ({ data: result.rows[0]?.data }),
        (error: unknown) => ({ error }),
      );
  }

  async function* readChunks(blob: BlobRow): AsyncGenerator<Buffer> {
    const ahead: Promise<{ data: Buffer | undefined } | { error: unknown }>[] = [];
    let next = 0;
    for (let index = 0; index < blob.chunks; index += 1) {
      while (next < blob.chunks && ahead.length < PIPELINE) ahead.push(fetchChunk(blob.generation, next++));
      const fetched = await (ahead.shift() as Promise<{ data: Buffer | undefined } | { error: unknown }>);
      if ('error' in fetched) throw fetched.error;
      const data = fetched.data;
      if (data === undefined) {
        const now = await row(blob.key);
        if (now?.generation !== blob.generation) {
          throw new UnavailableError(`blob ${blob.key} was replaced or deleted while it was being read; read it again`, {
            code: 'blob_changed',
            details: { key: blob.key },
          });
        }
        throw incomplete(blob.key, `part ${index + 1} of ${blob.chunks} is missing from the database`);
      }
      yield data;
    }
  }

  async function lockKey(tx: AnyKysely, key: string): Promise<void> {
    await sql`select pg_advisory_xact_lock(${LOCK_SPACE}, hashtext(${key}))`.execute(tx);
  }

  async function deleteChunks(generation: string): Promise<void> {
    await sql`delete from svc_blob_chunks where generation = ${generation}`.execute(db);
  }

  async function discard(generation: string): Promise<void> {
    await deleteChunks(generation).catch(() => undefined);
    await sql`delete from svc_blob_uploads where generation = ${generation}`.execute(db).catch(() => undefined);
  }

  /** Removes what puts that died (a node killed mid-upload) left behind; at most once an hour per node. */
  async function sweepStaleUploads(): Promise<void> {
    const now = clock.now();
    if (now - lastSweep < SWEEP_EVERY_MS) return;
    lastSweep = now;
    const stale = await sql<{ generation: string }>`
      delete from svc_blob_uploads where started_at < ${now - STALE_UPLOAD_MS} returning generation`.execute(db);
    for (const { generation } of stale.rows) await deleteChunks(generation);
  }
}

function incomplete(key: string, what: string): UnavailableError {
  return new UnavailableError(`blob ${key} is damaged: ${what}; it cannot be read, write it again`, {
    code: 'blob_incomplete',
    details: { key },
  });
}
