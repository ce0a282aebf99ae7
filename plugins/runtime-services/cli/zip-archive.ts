import { createReadStream } from 'node:fs';
import type { FileHandle } from 'node:fs/promises';
import { Readable, Transform, type TransformCallback, type Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { createInflateRaw, crc32 } from 'node:zlib';

/**
 * Reading a zip file from its central directory (PKWARE APPNOTE 6.3): what @actions/artifact
 * writes (archiver: deflate, or stored at compression level 0, sizes in data descriptors after
 * each entry, ZIP64 past 4 GiB). The directory, not the local headers, is read: a stored entry
 * streamed with a data descriptor has no size before its bytes, so reading front to back would
 * have to guess where it ends. That needs the whole file first, so it is downloaded to disk and
 * read from there; entries stream out of it one at a time, never whole in memory.
 */
export interface ZipEntry {
  /** As stored: `/`-separated; a directory ends with `/`. */
  readonly name: string;
  /** 0 stored, 8 deflate (the only two read). */
  readonly method: number;
  readonly crc32: number;
  readonly compressedSize: number;
  readonly size: number;
  readonly localHeaderOffset: number;
  readonly encrypted: boolean;
}

export class ZipFormatError extends Error {}

const EOCD = 0x06054b50;
const ZIP64_LOCATOR = 0x07064b50;
const ZIP64_EOCD = 0x06064b50;
const CENTRAL = 0x02014b50;
const LOCAL = 0x04034b50;
const EOCD_SIZE = 22;
const MAX_COMMENT = 0xffff;
const U16_MAX = 0xffff;
const U32_MAX = 0xffffffff;

async function read(file: FileHandle, position: number, length: number): Promise<Buffer> {
  const buffer = Buffer.alloc(length);
  const { bytesRead } = await file.read(buffer, 0, length, position);
  if (bytesRead !== length) throw new ZipFormatError(`the file ends at byte ${position + bytesRead}, inside its zip structure`);
  return buffer;
}

function u64(buffer: Buffer, offset: number): number {
  const value = buffer.readBigUInt64LE(offset);
  if (value > BigInt(Number.MAX_SAFE_INTEGER)) throw new ZipFormatError('a ZIP64 size or offset is larger than this reader handles');
  return Number(value);
}

/** Where the central directory is and how many entries it has. */
async function directoryBounds(file: FileHandle, fileSize: number): Promise<{ offset: number; size: number; entries: number }> {
  if (fileSize < EOCD_SIZE) throw new ZipFormatError(`${fileSize} bytes is too short for a zip file`);
  const tailLength = Math.min(fileSize, EOCD_SIZE + MAX_COMMENT);
  const tailStart = fileSize - tailLength;
  const tail = await read(file, tailStart, tailLength);
  // From the end: the record whose comment length reaches exactly to the end of the file.
  let at = -1;
  for (let i = tail.length - EOCD_SIZE; i >= 0; i--) {
    if (tail.readUInt32LE(i) === EOCD && i + EOCD_SIZE + tail.readUInt16LE(i + 20) === tail.length) {
      at = i;
      break;
    }
  }
  if (at < 0) throw new ZipFormatError('no end of central directory record: not a zip file, or a cut one');
  const disk = tail.readUInt16LE(at + 4);
  const directoryDisk = tail.readUInt16LE(at + 6);
  let entries = tail.readUInt16LE(at + 10);
  let size = tail.readUInt32LE(at + 12);
  let offset = tail.readUInt32LE(at + 16);
  if (entries === U16_MAX || size === U32_MAX || offset === U32_MAX) {
    const locatorAt = tailStart + at - 20;
    const locator = locatorAt >= 0 ? await read(file, locatorAt, 20) : undefined;
    if (locator?.readUInt32LE(0) !== ZIP64_LOCATOR) throw new ZipFormatError('a ZIP64 archive without its ZIP64 end of central directory locator');
    const record = await read(file, u64(locator, 8), 56);
    if (record.readUInt32LE(0) !== ZIP64_EOCD) throw new ZipFormatError('the ZIP64 end of central directory record is not where its locator says');
    entries = u64(record, 32);
    size = u64(record, 40);
    offset = u64(record, 48);
  } else if (disk !== 0 || directoryDisk !== 0) {
    throw new ZipFormatError('a zip split over several files is not supported');
  }
  if (offset + size > fileSize) throw new ZipFormatError('the central directory lies past the end of the file');
  return { offset, size, entries };
}

const utf8 = new TextDecoder('utf-8', { fatal: true });

/** Names flagged UTF-8 (bit 11) are; others are CP437 by the spec, in practice ASCII or UTF-8 too. */
function decodeName(bytes: Buffer, flags: number): string {
  if ((flags & 0x800) !== 0) return bytes.toString('utf8');
  try {
    return utf8.decode(bytes);
  } catch {
    return bytes.toString('latin1');
  }
}

/** The entries of the central directory, in order. */
export async function readZipDirectory(file: FileHandle, fileSize: number): Promise<ZipEntry[]> {
  const bounds = await directoryBounds(file, fileSize);
  const directory = await read(file, bounds.offset, bounds.size);
  const entries: ZipEntry[] = [];
  let at = 0;
  while (entries.length < bounds.entries) {
    if (at + 46 > directory.length || directory.readUInt32LE(at) !== CENTRAL) throw new ZipFormatError(`central directory entry ${entries.length + 1} is damaged`);
    const flags = directory.readUInt16LE(at + 8);
    const method = directory.readUInt16LE(at + 10);
    const crc = directory.readUInt32LE(at + 16);
    let compressedSize = directory.readUInt32LE(at + 20);
    let size = directory.readUInt32LE(at + 24);
    const nameLength = directory.readUInt16LE(at + 28);
    const extraLength = directory.readUInt16LE(at + 30);
    const commentLength = directory.readUInt16LE(at + 32);
    let localHeaderOffset = directory.readUInt32LE(at + 42);
    const nameStart = at + 46;
    const extraStart = nameStart + nameLength;
    const next = extraStart + extraLength + commentLength;
    if (next > directory.length) throw new ZipFormatError(`central directory entry ${entries.length + 1} runs past the directory`);
    const name = decodeName(directory.subarray(nameStart, extraStart), flags);
    // ZIP64 extended information: the 64-bit values of the fields saturated above, in this order.
    for (let field = extraStart; field + 4 <= extraStart + extraLength; ) {
      const id = directory.readUInt16LE(field);
      const length = directory.readUInt16LE(field + 2);
      if (id === 0x0001) {
        let value = field + 4;
        const take = (): number => {
          if (value + 8 > field + 4 + length) throw new ZipFormatError(`the ZIP64 field of ${name} is too short`);
          const read64 = u64(directory, value);
          value += 8;
          return read64;
        };
        if (size === U32_MAX) size = take();
        if (compressedSize === U32_MAX) compressedSize = take();
        if (localHeaderOffset === U32_MAX) localHeaderOffset = take();
      }
      field += 4 + length;
    }
    entries.push({ name, method, crc32: crc, compressedSize, size, localHeaderOffset, encrypted: (flags & 0x1) !== 0 });
    at = next;
  }
  return entries;
}

/**
 * Writes an entry's content, decompressed, to `destination`, checked against the directory's
 * size and CRC-32 as it streams (it fails at the end when either differs). Resolves once
 * `destination` has finished.
 */
export async function copyZipEntry(path: string, file: FileHandle, entry: ZipEntry, destination: Writable): Promise<void> {
  if (entry.encrypted) throw new ZipFormatError(`${entry.name} is encrypted; encrypted zip entries are not supported`);
  if (entry.method !== 0 && entry.method !== 8) throw new ZipFormatError(`${entry.name} is compressed with method ${entry.method}; only stored (0) and deflate (8) are supported`);
  const header = await read(file, entry.localHeaderOffset, 30);
  if (header.readUInt32LE(0) !== LOCAL) throw new ZipFormatError(`the local header of ${entry.name} is not where the central directory says`);
  const dataStart = entry.localHeaderOffset + 30 + header.readUInt16LE(26) + header.readUInt16LE(28);
  if (dataStart + entry.compressedSize > (await file.stat()).size) throw new ZipFormatError(`${entry.name} runs past the end of the file`);
  const raw = entry.compressedSize === 0 ? Readable.from([]) : createReadStream(path, { start: dataStart, end: dataStart + entry.compressedSize - 1 });
  try {
    if (entry.method === 8) await pipeline(raw, createInflateRaw(), checked(entry), destination);
    else await pipeline(raw, checked(entry), destination);
  } catch (error) {
    // zlib's own message ("invalid distance too far back") says nothing of where.
    if ((error as NodeJS.ErrnoException).code?.startsWith('Z_')) throw new ZipFormatError(`${entry.name} is not valid deflate data: ${(error as Error).message}`);
    throw error;
  }
}

/** Passes the bytes on, failing at the end unless their count and CRC-32 are the entry's. */
function checked(entry: ZipEntry): Transform {
  let crc = 0;
  let size = 0;
  return new Transform({
    transform(chunk: Buffer, _encoding, callback: TransformCallback) {
      crc = crc32(chunk, crc);
      size += chunk.length;
      callback(null, chunk);
    },
    flush(callback: TransformCallback) {
      if (size !== entry.size) return callback(new ZipFormatError(`${entry.name} unpacks to ${size} bytes, not the ${entry.size} its directory entry says`));
      if (crc >>> 0 !== entry.crc32 >>> 0) return callback(new ZipFormatError(`${entry.name} fails its CRC-32 check: the archive is damaged`));
      callback();
    },
  });
}
