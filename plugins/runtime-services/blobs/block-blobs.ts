import { createHash, randomUUID } from 'node:crypto';
import { Readable } from 'node:stream';
import { ConflictError, InputError, NotFoundError } from '../../../core/kernel/index.js';
import type { BlobStore, Clock } from '../../../core/ports/index.js';
import { num, numOrNull, type RuntimeDb, type RuntimeExecutor } from '../store/index.js';

/** Every key this plugin writes to the blob store starts with this. */
export const BLOB_PREFIX = 'runtime-services';

/** A committed blob's content: parts (blob-store keys and sizes) in order. */
type Manifest = readonly (readonly [key: string, size: number])[];

export interface BlobState {
  readonly id: string;
  readonly sealed: boolean;
  /** Undefined until a block list (or a whole blob, or v1 ranges) was committed. */
  readonly size: number | undefined;
  readonly contentType: string | undefined;
}

/** An inclusive byte range, already checked against the blob's size. */
export interface ByteRange {
  readonly start: number;
  readonly end: number;
}

export interface OpenedBlob {
  readonly size: number;
  readonly contentType: string | undefined;
  readonly body: Readable;
}

/**
 * Blobs with Azure block-blob semantics over the blob store, the way the toolkit's Azure SDK
 * writes them: blocks are staged as their own blob-store objects (`Put Block`); a block list
 * makes them the content, in its order, by recording them in a manifest — no byte is copied
 * again, so committing a 1 GiB upload costs one row update; uncommitted blocks are dropped then.
 * `Put Blob` replaces the content with one object; cache v1 uploads byte ranges committed by
 * size. Reads stream the parts in order, a range by skipping into its first part.
 *
 * Known difference from Azure: a block staged again under an id that is part of the committed
 * list replaces that committed block's bytes (Azure keeps both until the next commit). The
 * toolkit never re-stages a committed id.
 */
export interface BlockBlobs {
  /** Inserts an open, empty blob (inside the caller's transaction). */
  create(tx: RuntimeExecutor, id: string): Promise<void>;
  state(id: string): Promise<BlobState | undefined>;
  stageBlock(id: string, blockId: string, body: Readable, contentLength: number | undefined): Promise<number>;
  commitBlockList(id: string, blockIds: readonly string[], contentType: string | undefined): Promise<number>;
  putBlob(id: string, body: Readable, contentLength: number | undefined, contentType: string | undefined): Promise<number>;
  /** Cache v1: bytes `start..end` (inclusive) of the upload. */
  writeRange(id: string, start: number, end: number, body: Readable): Promise<void>;
  /** Cache v1: the ranges uploaded so far become the content; they must cover `0..size-1` exactly. */
  commitRanges(id: string, size: number): Promise<void>;
  /** No more writes (inside the caller's transaction); false when it was sealed already. */
  seal(tx: RuntimeExecutor, id: string): Promise<boolean>;
  open(id: string, range: ByteRange | undefined): Promise<OpenedBlob>;
  /** The blob's objects and row; a missing blob is no error. */
  remove(id: string): Promise<void>;
}

export function createBlockBlobs(db: RuntimeDb, store: BlobStore, clock: Clock): BlockBlobs {
  const prefix = (id: string): string => `${BLOB_PREFIX}/${id}/`;
  const stagedKey = (id: string, blockId: string): string => `${prefix(id)}s/${createHash('sha256').update(blockId).digest('hex')}`;
  const rangeKey = (id: string, start: number): string => `${prefix(id)}r/${String(start).padStart(16, '0')}`;

  async function row(id: string) {
    return db.selectFrom('runtime_blobs').selectAll().where('id', '=', id).executeTakeFirst();
  }

  async function openRow(id: string) {
    const found = await row(id);
    if (found === undefined) throw new NotFoundError(`blob ${id} does not exist`, { code: 'blob_not_found' });
    if (found.state !== 'open') throw new ConflictError(`blob ${id} is finalized and cannot change`, { code: 'blob_immutable' });
    return found;
  }

  /** Writes `body` to `key`; a length that differs from the declared one removes it again. */
  async function putChecked(key: string, body: Readable, expected: number | undefined): Promise<number> {
    const info = await store.put(key, Readable.from(coalesce(body)));
    if (expected !== undefined && info.size !== expected) {
      await store.delete(key);
      throw new InputError(`the request declared ${expected} bytes but sent ${info.size}`, { code: 'length_mismatch' });
    }
    return info.size;
  }

  /** Records the content and drops every object of the blob the manifest does not name. */
  async function commit(id: string, manifest: Manifest, contentType: string | undefined | null): Promise<number> {
    const size = manifest.reduce((sum, [, partSize]) => sum + partSize, 0);
    const updated = await db
      .updateTable('runtime_blobs')
      .set({ manifest: JSON.stringify(manifest), size, ...(contentType === null ? {} : { content_type: contentType ?? null }), updated_at: clock.now() })
      .where('id', '=', id)
      .where('state', '=', 'open')
      .executeTakeFirst();
    if (updated.numUpdatedRows === 0n) throw new ConflictError(`blob ${id} is finalized and cannot change`, { code: 'blob_immutable' });
    const keep = new Set(manifest.map(([key]) => key));
    for await (const object of store.list(prefix(id))) {
      if (!keep.has(object.key)) await store.delete(object.key);
    }
    return size;
  }

  return {
    async create(tx, id) {
      const now = clock.now();
      await tx.insertInto('runtime_blobs').values({ id, state: 'open', manifest: null, size: null, content_type: null, created_at: now, updated_at: now }).execute();
    },

    async state(id) {
      const found = await row(id);
      if (found === undefined) return undefined;
      const size = numOrNull(found.size);
      return { id, sealed: found.state !== 'open', size: found.manifest === null || size === null ? undefined : size, contentType: found.content_type ?? undefined };
    },

    async stageBlock(id, blockId, body, contentLength) {
      await openRow(id);
      return putChecked(stagedKey(id, blockId), body, contentLength);
    },

    async commitBlockList(id, blockIds, contentType) {
      await openRow(id);
      const manifest: (readonly [string, number])[] = [];
      for (const blockId of blockIds) {
        const key = stagedKey(id, blockId);
        const info = await store.stat(key);
        if (info === undefined) throw new InputError(`block ${blockId} was not staged`, { code: 'invalid_block_list' });
        manifest.push([key, info.size]);
      }
      return commit(id, manifest, contentType);
    },

    async putBlob(id, body, contentLength, contentType) {
      await openRow(id);
      const key = `${prefix(id)}p/${randomUUID()}`;
      const size = await putChecked(key, body, contentLength);
      return commit(id, [[key, size]], contentType);
    },

    async writeRange(id, start, end, body) {
      await openRow(id);
      await putChecked(rangeKey(id, start), body, end - start + 1);
    },

    async commitRanges(id, size) {
      await openRow(id);
      const parts: (readonly [string, number])[] = [];
      let expected = 0;
      for await (const object of store.list(`${prefix(id)}r/`)) {
        const start = Number(object.key.slice(object.key.lastIndexOf('/') + 1));
        if (start !== expected) throw new InputError(`the uploaded chunks leave a gap or overlap at byte ${expected}`, { code: 'invalid_chunks' });
        parts.push([object.key, object.size]);
        expected += object.size;
      }
      if (expected !== size) throw new InputError(`the uploaded chunks hold ${expected} bytes, not ${size}`, { code: 'invalid_chunks' });
      await commit(id, parts, null);
    },

    async seal(tx, id) {
      const updated = await tx.updateTable('runtime_blobs').set({ state: 'sealed', updated_at: clock.now() }).where('id', '=', id).where('state', '=', 'open').executeTakeFirst();
      return updated.numUpdatedRows > 0n;
    },

    async open(id, range) {
      const found = await row(id);
      if (found === undefined || found.manifest === null) throw new NotFoundError(`blob ${id} has no content`, { code: 'blob_not_found' });
      const manifest = JSON.parse(found.manifest) as Manifest;
      const size = num(found.size ?? 0);
      const start = range?.start ?? 0;
      const end = range?.end ?? size - 1;
      return { size, contentType: found.content_type ?? undefined, body: Readable.from(concatenate(store, manifest, start, end)) };
    },

    async remove(id) {
      for await (const object of store.list(prefix(id))) await store.delete(object.key);
      await db.deleteFrom('runtime_blobs').where('id', '=', id).execute();
    },
  };
}

/**
 * A request body in pieces of about `WRITE_BATCH` bytes: sockets deliver 16-64 KiB at a time and
 * the blob store writes what it is given, so batching cuts the writes (and their awaits) of a
 * 64 MiB block from ~1,000 to 16 (measured: 2.5x faster puts). Backpressure is kept: one batch
 * is held at a time.
 */
const WRITE_BATCH = 4 * 1024 * 1024;

async function* coalesce(body: Readable): AsyncGenerator<Buffer> {
  let parts: Buffer[] = [];
  let length = 0;
  for await (const chunk of body as AsyncIterable<Buffer | string>) {
    const bytes = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
    parts.push(bytes);
    length += bytes.length;
    if (length >= WRITE_BATCH) {
      yield Buffer.concat(parts, length);
      parts = [];
      length = 0;
    }
  }
  if (length > 0) yield Buffer.concat(parts, length);
}

/** Bytes `start..end` (inclusive) of the parts, in order, one part open at a time. */
async function* concatenate(store: BlobStore, manifest: Manifest, start: number, end: number): AsyncGenerator<Buffer> {
  let offset = 0;
  for (const [key, size] of manifest) {
    const partStart = offset;
    offset += size;
    if (size === 0 || offset - 1 < start) continue;
    if (partStart > end) return;
    const stream = await store.get(key);
    if (stream === undefined) throw new Error(`blob part ${key} is missing from the blob store`);
    let skip = Math.max(0, start - partStart);
    let remaining = Math.min(end, offset - 1) - Math.max(start, partStart) + 1;
    try {
      for await (const chunk of stream as AsyncIterable<Buffer>) {
        let bytes = chunk;
        if (skip > 0) {
          if (bytes.length <= skip) {
            skip -= bytes.length;
            continue;
          }
          bytes = bytes.subarray(skip);
          skip = 0;
        }
        if (bytes.length > remaining) bytes = bytes.subarray(0, remaining);
        remaining -= bytes.length;
        yield bytes;
        if (remaining === 0) break;
      }
    } finally {
      stream.destroy();
    }
  }
}
