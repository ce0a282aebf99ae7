import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { crc32, deflateRawSync } from 'node:zlib';
import { unpackZip } from './unpack-zip.js';

/**
 * Archives written here byte by byte, in the layouts the reader must handle: archiver's (what
 * @actions/artifact uses: sizes in a data descriptor after each entry, zeros in the local header),
 * forced ZIP64 records, and broken ones. The real @actions/artifact zips are unpacked in
 * test/runtime-services/artifact-cli.test.ts.
 */
interface Entry {
  readonly name: string;
  readonly data?: Buffer;
  readonly method?: 0 | 8 | 12;
  /** Store a wrong CRC-32 in the central directory. */
  readonly badCrc?: boolean;
}

function u16(value: number): Buffer {
  const b = Buffer.alloc(2);
  b.writeUInt16LE(value);
  return b;
}
function u32(value: number): Buffer {
  const b = Buffer.alloc(4);
  b.writeUInt32LE(value >>> 0);
  return b;
}
function u64(value: number): Buffer {
  const b = Buffer.alloc(8);
  b.writeBigUInt64LE(BigInt(value));
  return b;
}

function zip(entries: readonly Entry[], options: { zip64?: boolean; comment?: string } = {}): Buffer {
  const parts: Buffer[] = [];
  const central: Buffer[] = [];
  let offset = 0;
  for (const entry of entries) {
    const data = entry.data ?? Buffer.alloc(0);
    const method = entry.method ?? 8;
    const stored = method === 8 ? deflateRawSync(data) : data;
    const crc = entry.badCrc ? crc32(data) ^ 1 : crc32(data);
    const name = Buffer.from(entry.name, 'utf8');
    const flags = 0x8 | 0x800; // data descriptor, UTF-8 name
    const local = Buffer.concat([u32(0x04034b50), u16(45), u16(flags), u16(method), u16(0), u16(0), u32(0), u32(0), u32(0), u16(name.length), u16(0), name]);
    const descriptor = options.zip64 ? Buffer.concat([u32(0x08074b50), u32(crc), u64(stored.length), u64(data.length)]) : Buffer.concat([u32(0x08074b50), u32(crc), u32(stored.length), u32(data.length)]);
    const extra = options.zip64 ? Buffer.concat([u16(1), u16(24), u64(data.length), u64(stored.length), u64(offset)]) : Buffer.alloc(0);
    const big = options.zip64 ? 0xffffffff : undefined;
    central.push(
      Buffer.concat([
        u32(0x02014b50), u16(0x031e), u16(45), u16(flags), u16(method), u16(0), u16(0), u32(crc),
        u32(big ?? stored.length), u32(big ?? data.length), u16(name.length), u16(extra.length), u16(0), u16(0), u16(0),
        u32(entry.name.endsWith('/') ? 0x41ed0010 : 0x81a40000), u32(big ?? offset), name, extra,
      ]),
    );
    parts.push(local, stored, descriptor);
    offset += local.length + stored.length + descriptor.length;
  }
  const directory = Buffer.concat(central);
  const comment = Buffer.from(options.comment ?? '', 'utf8');
  const end: Buffer[] = [];
  if (options.zip64) {
    const record = Buffer.concat([u32(0x06064b50), u64(44), u16(45), u16(45), u32(0), u32(0), u64(entries.length), u64(entries.length), u64(directory.length), u64(offset)]);
    end.push(record, Buffer.concat([u32(0x07064b50), u32(0), u64(offset + directory.length), u32(1)]));
    end.push(Buffer.concat([u32(0x06054b50), u16(0), u16(0), u16(0xffff), u16(0xffff), u32(0xffffffff), u32(0xffffffff), u16(comment.length), comment]));
  } else {
    end.push(Buffer.concat([u32(0x06054b50), u16(0), u16(0), u16(entries.length), u16(entries.length), u32(directory.length), u32(offset), u16(comment.length), comment]));
  }
  return Buffer.concat([...parts, directory, ...end]);
}

const root = mkdtempSync(join(tmpdir(), 'svc-unzip-'));
after(() => rmSync(root, { recursive: true, force: true }));
let count = 0;

/** Writes the archive to a file and unpacks it into a fresh directory. */
async function unpack(archive: Buffer): Promise<{ dir: string; result: Promise<{ files: number; bytes: number }> }> {
  const n = (count += 1);
  const file = join(root, `a${n}.zip`);
  writeFileSync(file, archive);
  const dir = join(root, `out${n}`);
  return { dir, result: unpackZip(file, dir) };
}

describe('unpacking artifact zips', () => {
  it('deflated and stored entries sized by data descriptors, directories, UTF-8 names, an empty file, a comment', async () => {
    const big = Buffer.alloc(300_000, 'svc artifacts ');
    const { dir, result } = await unpack(
      zip(
        [
          { name: 'app.bin', data: big },
          { name: 'docs/', method: 0 },
          { name: 'docs/notes.txt', data: Buffer.from('release notes\n'), method: 0 },
          { name: 'docs/ünïcode.md', data: Buffer.from('# hi\n') },
          { name: 'empty.txt', method: 0 },
          { name: 'empty-dir/', method: 0 },
        ],
        { comment: 'made by a test' },
      ),
    );
    assert.deepEqual(await result, { files: 4, bytes: big.length + 14 + 5 });
    assert.ok(readFileSync(join(dir, 'app.bin')).equals(big));
    assert.equal(readFileSync(join(dir, 'docs', 'notes.txt'), 'utf8'), 'release notes\n');
    assert.equal(readFileSync(join(dir, 'docs', 'ünïcode.md'), 'utf8'), '# hi\n');
    assert.equal(readFileSync(join(dir, 'empty.txt'), 'utf8'), '');
    assert.deepEqual(readdirSync(join(dir, 'empty-dir')), []);
  });

  it('ZIP64 records: sizes and offsets from the extra field, the directory from the ZIP64 end record', async () => {
    const { dir, result } = await unpack(zip([{ name: 'a.txt', data: Buffer.from('first') }, { name: 'b/c.txt', data: Buffer.from('second'), method: 0 }], { zip64: true }));
    assert.deepEqual(await result, { files: 2, bytes: 11 });
    assert.equal(readFileSync(join(dir, 'b', 'c.txt'), 'utf8'), 'second');
  });

  it('refuses an entry that would land outside the directory, before writing anything', async () => {
    for (const name of ['../escape.txt', 'a/../../escape.txt', '/etc/passwd', 'C:/x.txt', '..\\escape.txt']) {
      const { dir, result } = await unpack(zip([{ name: 'fine.txt', data: Buffer.from('ok') }, { name, data: Buffer.from('no') }]));
      await assert.rejects(result, /outside .*nothing was unpacked/, name);
      assert.equal(existsSync(join(dir, 'fine.txt')), false, `${name}: nothing was written`);
    }
    assert.equal(existsSync(join(root, 'escape.txt')), false);
  });

  it('fails on damage: a CRC that does not match, an unknown method, a cut file, not a zip', async () => {
    await assert.rejects((await unpack(zip([{ name: 'x.txt', data: Buffer.from('hello'), badCrc: true }]))).result, /x\.txt fails its CRC-32 check/);
    await assert.rejects((await unpack(zip([{ name: 'x.txt', data: Buffer.from('hello'), method: 12 }]))).result, /method 12; only stored \(0\) and deflate \(8\)/);
    const whole = zip([{ name: 'x.txt', data: Buffer.from('hello') }]);
    await assert.rejects((await unpack(whole.subarray(0, whole.length - 30))).result, /no end of central directory record/);
    await assert.rejects((await unpack(Buffer.from('PK but not really a zip file at all'))).result, /no end of central directory record/);
    const corrupt = Buffer.from(whole);
    corrupt.fill(0xff, 30 + 'x.txt'.length, 30 + 'x.txt'.length + 4);
    await assert.rejects((await unpack(corrupt)).result, /x\.txt (is not valid deflate data|fails its CRC-32|unpacks to)/);
  });
});
