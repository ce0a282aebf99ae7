/**
 * Reads an action archive the way the runner unpacks one (§5.5): a tar, gzipped or not; the
 * entries' names (pax/GNU long names and the ustar prefix honoured) are what an expectation
 * matches, e.g. "exactly one top-level directory".
 */
import { gunzipSync } from 'node:zlib';

const BLOCK = 512;

function field(header: Buffer, start: number, length: number): string {
  const raw = header.subarray(start, start + length);
  const end = raw.indexOf(0);
  return raw.subarray(0, end < 0 ? raw.length : end).toString('utf8');
}

function paxPath(data: Buffer): string | undefined {
  for (const record of data.toString('utf8').split('\n')) {
    const match = /^\d+ path=(.*)$/.exec(record);
    if (match) return match[1];
  }
  return undefined;
}

/** The entry names of a tar or tar.gz, in order; throws on anything else. */
export function archiveEntries(bytes: Buffer): string[] {
  const tar = bytes[0] === 0x1f && bytes[1] === 0x8b ? gunzipSync(bytes) : bytes;
  const names: string[] = [];
  let longName: string | undefined;
  for (let offset = 0; offset + BLOCK <= tar.length; ) {
    const header = tar.subarray(offset, offset + BLOCK);
    if (header.every((byte) => byte === 0)) break;
    if (field(header, 257, 6) !== 'ustar' && !field(header, 257, 8).startsWith('ustar')) throw new Error(`not a tar archive (no ustar header at ${offset})`);
    const size = parseInt(field(header, 124, 12).trim() || '0', 8);
    const type = String.fromCharCode(header[156] ?? 0x30);
    const data = tar.subarray(offset + BLOCK, offset + BLOCK + size);
    if (type === 'x' || type === 'L') longName = type === 'x' ? paxPath(data) : field(data, 0, data.length);
    else if (type !== 'g') {
      const prefix = field(header, 345, 155);
      names.push(longName ?? (prefix === '' ? field(header, 0, 100) : `${prefix}/${field(header, 0, 100)}`));
      longName = undefined;
    }
    offset += BLOCK + Math.ceil(size / BLOCK) * BLOCK;
  }
  return names;
}
