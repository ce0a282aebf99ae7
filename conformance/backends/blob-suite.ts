/**
 * What every blob backend must do: round trips (Buffer and stream), stat, list, delete, key
 * validation, and signed URLs that expire and refuse any tampering.
 */
import assert from 'node:assert/strict';
import { Readable } from 'node:stream';
import { describe, test, type TestContext } from 'node:test';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { AuthError, InputError, type BlobBackendInstance } from '../../core/kernel/index.js';
import type { BlobInfo } from '../../core/ports/index.js';
import type { ManualClock } from '../../test/support/manual-clock.js';
import type { SuiteOptions } from './store-suite.js';

export interface BlobHarness {
  readonly blobs: BlobBackendInstance;
  readonly clock: ManualClock;
}

export type BlobHarnessFactory = (t: TestContext) => Promise<BlobHarness>;

async function readAll(stream: Readable | undefined): Promise<Buffer | undefined> {
  if (stream === undefined) return undefined;
  const chunks: Buffer[] = [];
  for await (const chunk of stream as AsyncIterable<Buffer>) chunks.push(chunk);
  return Buffer.concat(chunks);
}

async function keys(list: AsyncIterable<BlobInfo>): Promise<string[]> {
  const out: string[] = [];
  for await (const info of list) out.push(info.key);
  return out.sort();
}

/** Splits a signed path into what the HTTP layer hands to `verify`. */
function parseSigned(path: string): { key: string; query: Record<string, string> } {
  const url = new URL(path, 'http://svc.invalid');
  assert.ok(url.pathname.startsWith('/_blobs/'), path);
  return { key: url.pathname.slice('/_blobs/'.length), query: Object.fromEntries(url.searchParams) };
}

function refusedWith(code: string) {
  return (error: unknown): boolean => error instanceof AuthError && error.code === code && error.status === 401;
}

/** Bytes `[offset, offset + length)` of a blob whose every 4-byte word depends on its writer (`seed`) and position. */
function pattern(seed: number, offset: number, length: number): Buffer {
  const start = offset - (offset % 4);
  const words = Buffer.alloc(Math.ceil((offset + length - start) / 4) * 4);
  for (let i = 0; i < words.length; i += 4) words.writeUInt32BE(((start + i) ^ Math.imul(seed, 0x9e3779b1)) >>> 0, i);
  return words.subarray(offset - start, offset - start + length);
}

/** A streamed blob of `size` bytes of `pattern(seed)`, in 64 KiB pieces. */
function patterned(seed: number, size: number, onPiece?: (offset: number) => Promise<void>, piece = 64 * 1024): Readable {
  return Readable.from(
    (async function* () {
      for (let offset = 0; offset < size; offset += piece) {
        await onPiece?.(offset);
        yield pattern(seed, offset, Math.min(piece, size - offset));
        // Let other writers (and the store's I/O) run between pieces, so concurrent puts interleave.
        await new Promise((resolve) => setImmediate(resolve));
      }
    })(),
    { objectMode: false, highWaterMark: piece },
  );
}

async function bytesOf(stream: Readable): Promise<Buffer> {
  return (await readAll(stream)) ?? Buffer.alloc(0);
}

/** `gc()` for mechanism checks of live memory (garbage is not what a store holds on to). */
function collector(): () => void {
  setFlagsFromString('--expose-gc');
  return runInNewContext('gc') as () => void;
}

/**
 * Live heap plus Buffer memory, after full collections. Buffers' memory is released by a
 * background sweeper after a collection, so a turn of the event loop passes before the second.
 */
async function liveBytes(gc: () => void): Promise<number> {
  gc();
  await new Promise((resolve) => setTimeout(resolve, 0));
  gc();
  const usage = process.memoryUsage();
  return usage.heapUsed + usage.arrayBuffers;
}

export function blobSuite(name: string, factory: BlobHarnessFactory, options: SuiteOptions = {}): void {
  describe(`${name} blobs`, { skip: options.skip ?? false }, () => {
    test('a Buffer round-trips with its size and time', async (t) => {
      const { blobs, clock } = await factory(t);
      const data = Buffer.from('hello, blob\n');
      const info = await blobs.store.put('logs/run-1/job-1.log', data);
      assert.deepEqual(info, { key: 'logs/run-1/job-1.log', size: data.length, modifiedAt: clock.now() });
      assert.deepEqual(await readAll(await blobs.store.get('logs/run-1/job-1.log')), data);
      assert.deepEqual(await blobs.store.stat('logs/run-1/job-1.log'), info);
    });

    test('a stream round-trips, and a put replaces the whole blob', async (t) => {
      const { blobs } = await factory(t);
      const chunks = Array.from({ length: 64 }, (_, i) => Buffer.alloc(16 * 1024, i));
      const info = await blobs.store.put('cache/big.bin', Readable.from(chunks));
      assert.equal(info.size, 64 * 16 * 1024);
      assert.deepEqual(await readAll(await blobs.store.get('cache/big.bin')), Buffer.concat(chunks));

      await blobs.store.put('cache/big.bin', Readable.from(['short ', 'text']));
      assert.equal((await readAll(await blobs.store.get('cache/big.bin')))?.toString(), 'short text');
      assert.equal((await blobs.store.stat('cache/big.bin'))?.size, 10);
    });

    test('a failing stream leaves the old blob in place and no debris', async (t) => {
      const { blobs } = await factory(t);
      await blobs.store.put('a/b.txt', Buffer.from('old'));
      const failing = Readable.from(
        (async function* () {
          yield Buffer.from('new but ');
          throw new Error('upload cut');
        })(),
      );
      await assert.rejects(blobs.store.put('a/b.txt', failing), /upload cut/);
      assert.equal((await readAll(await blobs.store.get('a/b.txt')))?.toString(), 'old');
      assert.deepEqual(await keys(blobs.store.list('')), ['a/b.txt']);
    });

    test('missing blobs: get and stat give undefined, delete gives false', async (t) => {
      const { blobs } = await factory(t);
      assert.equal(await blobs.store.get('nope/never'), undefined);
      assert.equal(await blobs.store.stat('nope/never'), undefined);
      assert.equal(await blobs.store.delete('nope/never'), false);
    });

    test('list by prefix, then delete', async (t) => {
      const { blobs } = await factory(t);
      for (const key of ['logs/run-1/a.log', 'logs/run-1/b.log', 'logs/run-10/a.log', 'logs/run-2/a.log', 'cache/x']) {
        await blobs.store.put(key, Buffer.from(key));
      }
      assert.deepEqual(await keys(blobs.store.list('logs/run-1/')), ['logs/run-1/a.log', 'logs/run-1/b.log']);
      assert.deepEqual(await keys(blobs.store.list('logs/run-1')), ['logs/run-1/a.log', 'logs/run-1/b.log', 'logs/run-10/a.log']);
      assert.deepEqual(await keys(blobs.store.list('')), ['cache/x', 'logs/run-1/a.log', 'logs/run-1/b.log', 'logs/run-10/a.log', 'logs/run-2/a.log']);
      assert.deepEqual(await keys(blobs.store.list('nothing/')), []);

      assert.equal(await blobs.store.delete('logs/run-1/a.log'), true);
      assert.equal(await blobs.store.delete('logs/run-1/a.log'), false);
      assert.deepEqual(await keys(blobs.store.list('logs/run-1/')), ['logs/run-1/b.log']);
      await blobs.store.delete('logs/run-1/b.log');
      // Once its children are gone, a former prefix can hold a blob itself.
      await blobs.store.put('logs/run-1', Buffer.from('now a file'));
      assert.equal((await blobs.store.stat('logs/run-1'))?.size, 10);
    });

    test('concurrent writers of one key: the result is one whole blob of one writer', async (t) => {
      const { blobs } = await factory(t);
      const size = 2 * 1024 * 1024 + 12_345; // several parts in a chunked store
      const writers = [1, 2, 3, 4];
      const expected = await Promise.all(writers.map((seed) => bytesOf(patterned(seed, size))));
      const results = await Promise.allSettled(writers.map((seed) => blobs.store.put('cache/contended.bin', patterned(seed, size))));
      assert.deepEqual(results.map((result) => result.status), writers.map(() => 'fulfilled'));
      const stored = await readAll(await blobs.store.get('cache/contended.bin'));
      assert.ok(stored !== undefined);
      assert.equal(stored.length, size);
      assert.ok(expected.some((bytes) => bytes.equals(stored)), 'the stored blob is exactly one writer\'s');
      assert.equal((await blobs.store.stat('cache/contended.bin'))?.size, size);
      assert.deepEqual(await keys(blobs.store.list('cache/')), ['cache/contended.bin']);
    });

    test('a 64 MiB blob streams in and out with bounded memory', async (t) => {
      const { blobs } = await factory(t);
      const gc = collector();
      const size = 64 * 1024 * 1024;
      const sampleEvery = 4 * 1024 * 1024;
      const baseline = await liveBytes(gc);
      let peak = 0;
      // Sampled as the store pulls the source: what it holds while the rest is still to come.
      const source = patterned(7, size, async (offset) => {
        if (offset % sampleEvery === 0 && offset > 0) peak = Math.max(peak, (await liveBytes(gc)) - baseline);
      });
      assert.equal((await blobs.store.put('artifacts/large.bin', source)).size, size);
      const writePeak = peak;

      // What a store keeps for the whole process (a connection pool's buffers) is not the blob's.
      const readBaseline = await liveBytes(gc);
      peak = 0;
      const stream = await blobs.store.get('artifacts/large.bin');
      assert.ok(stream !== undefined);
      let consumed = 0;
      for await (const chunk of stream as AsyncIterable<Buffer>) {
        // Compared as the bytes arrive, so the test keeps nothing of the blob either.
        if (!chunk.equals(pattern(7, consumed, chunk.length))) assert.fail(`bytes differ in the ${chunk.length} bytes at offset ${consumed}`);
        const before = consumed;
        consumed += chunk.length;
        if (Math.floor(before / sampleEvery) !== Math.floor(consumed / sampleEvery)) {
          // A slow reader: a store that reads ahead of it gets the time to (and is then caught).
          await new Promise((resolve) => setTimeout(resolve, 250));
          peak = Math.max(peak, (await liveBytes(gc)) - readBaseline);
        }
      }
      assert.equal(consumed, size);
      // A quarter of the blob: a store that buffers it whole (or reads far ahead of a slow
      // reader) holds most of it; a streaming one holds a few parts and its driver's buffers.
      const limit = size / 4;
      t.diagnostic(`live memory growth: writing ${Math.round(writePeak / 2 ** 20)} MiB, reading ${Math.round(peak / 2 ** 20)} MiB (blob ${size / 2 ** 20} MiB)`);
      assert.ok(writePeak < limit, `writing held ${Math.round(writePeak / 2 ** 20)} MiB live (limit ${limit / 2 ** 20} MiB)`);
      assert.ok(peak < limit, `reading held ${Math.round(peak / 2 ** 20)} MiB live (limit ${limit / 2 ** 20} MiB)`);
    });

    test('bad keys are refused with an input error', async (t) => {
      const { blobs } = await factory(t);
      const refused = (error: unknown): boolean => error instanceof InputError && error.status === 400;
      for (const key of ['', '/abs', 'a//b', 'a/', '../escape', 'a/../b', 'a/./b', '.', 'sp ace', 'back\\slash', 'ünï', 'a?b', 'x'.repeat(256)]) {
        await assert.rejects(blobs.store.put(key, Buffer.from('x')), refused, JSON.stringify(key));
        await assert.rejects(blobs.store.get(key), refused, JSON.stringify(key));
        await assert.rejects(blobs.store.stat(key), refused, JSON.stringify(key));
        await assert.rejects(blobs.store.delete(key), refused, JSON.stringify(key));
        assert.throws(() => blobs.signer.sign({ key, method: 'GET', ttlSeconds: 60 }), refused, JSON.stringify(key));
      }
      await assert.rejects(keys(blobs.store.list('../')), refused);
    });

    test('a signed URL is valid for its key and method until it expires', async (t) => {
      const { blobs, clock } = await factory(t);
      const path = blobs.signer.sign({ key: 'artifacts/run-1/out.zip', method: 'GET', ttlSeconds: 60 });
      const { key, query } = parseSigned(path);
      assert.equal(key, 'artifacts/run-1/out.zip');
      assert.equal(Number(query['exp']), Math.floor(clock.now() / 1000) + 60);
      blobs.signer.verify(key, 'GET', query);

      clock.advance(60_000);
      blobs.signer.verify(key, 'GET', query); // still valid through its last second
      clock.advance(1000);
      assert.throws(() => blobs.signer.verify(key, 'GET', query), refusedWith('signature_expired'));
    });

    test('a tampered URL is refused: key, method, expiry or signature', async (t) => {
      const { blobs } = await factory(t);
      const { key, query } = parseSigned(blobs.signer.sign({ key: 'cache/entry-1', method: 'PUT', ttlSeconds: 300 }));
      const invalid = refusedWith('signature_invalid');
      const sig = query['sig'] ?? '';
      const flipped = `${sig.slice(0, 10)}${sig[10] === 'A' ? 'B' : 'A'}${sig.slice(11)}`;

      assert.throws(() => blobs.signer.verify('cache/entry-2', 'PUT', query), invalid, 'other key');
      assert.throws(() => blobs.signer.verify(key, 'GET', query), invalid, 'other method');
      assert.throws(() => blobs.signer.verify(key, 'PUT', { ...query, exp: String(Number(query['exp']) + 3600) }), invalid, 'longer expiry');
      assert.throws(() => blobs.signer.verify(key, 'PUT', { ...query, sig: flipped }), invalid, 'flipped signature');
      assert.throws(() => blobs.signer.verify(key, 'PUT', { ...query, sig: `${sig}A` }), invalid, 'longer signature');
      assert.throws(() => blobs.signer.verify(key, 'PUT', { exp: query['exp'] }), invalid, 'no signature');
      assert.throws(() => blobs.signer.verify(key, 'PUT', { sig }), invalid, 'no expiry');
      assert.throws(() => blobs.signer.verify(key, 'PUT', { ...query, exp: [query['exp']] }), invalid, 'repeated expiry');
      assert.throws(() => blobs.signer.verify('../cache/entry-1', 'PUT', query), invalid, 'bad key');
      blobs.signer.verify(key, 'PUT', query);
    });
  });
}
