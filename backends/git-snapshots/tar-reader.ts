import { Transform, type Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { createGunzip } from 'node:zlib';
import { extract as tarExtract, type Extract } from 'tar-stream';
import { InputError, SvcError } from '../../core/kernel/index.js';
import { normalizeEntryPath, refuseEntry, TreePaths } from './entry-paths.js';

/** A file of the snapshot, as git will store it. */
export type TreeEntry =
  | { readonly kind: 'file'; readonly path: string; readonly mode: '100644' | '100755'; readonly size: number; readonly data: AsyncIterable<Buffer> }
  | { readonly kind: 'symlink'; readonly path: string; readonly mode: '120000'; readonly target: Buffer };

const GZIP_MAGIC = [0x1f, 0x8b] as const;

/**
 * The files and symlinks of a tar or tar.gz stream (gzip told by its magic bytes), paths checked
 * and normalised; directories are implied by their files and not yielded. Each file's `data` must
 * be read to the end before asking for the next entry. Archives that are not tar, or that hold
 * hard links, devices, FIFOs or refused paths, throw an InputError naming the entry. Errors of
 * the `archive` stream itself (a cut connection) pass through unchanged.
 */
export async function* readTarEntries(archive: Readable, maxUnpackedBytes = Number.POSITIVE_INFINITY): AsyncGenerator<TreeEntry> {
  const source = await sniff(archive);
  const extract = tarExtract();
  let unpacked = 0;
  const counted = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      unpacked += chunk.length;
      if (unpacked > maxUnpackedBytes) {
        done(
          new SvcError(`the snapshot archive unpacks to more than ${maxUnpackedBytes} bytes, the most this server takes (4 x SVC_SNAPSHOT_MAX_BYTES); leave build output and dependencies out (.gitignore)`, 413, 'snapshot_too_large', {
            details: { maxUnpackedBytes },
          }),
        );
      } else done(null, chunk);
    },
  });
  let sourceError: unknown;
  const chunks = (async function* () {
    try {
      yield* source.chunks;
    } catch (error) {
      sourceError = error;
      throw error;
    }
  })();
  const feeding = source.gzip ? pipeline(chunks, createGunzip(), counted, extract) : pipeline(chunks, counted, extract);
  feeding.catch(() => undefined); // read below, or superseded by the error that stopped us
  const classify = (error: unknown): unknown =>
    error === sourceError || error instanceof SvcError
      ? error
      : new InputError(`the snapshot is not a readable ${source.gzip ? 'tar.gz' : 'tar'} archive: ${(error as Error).message}`, {
          code: 'snapshot_archive_invalid',
          cause: error,
        });
  // A cut archive shows up while a file's data is read, in the consumer's hands: classify there too.
  async function* fileData(data: AsyncIterable<Buffer>): AsyncGenerator<Buffer> {
    try {
      yield* data;
    } catch (error) {
      throw classify(error);
    }
  }
  const paths = new TreePaths();
  try {
    for await (const entry of extract) {
      const treeEntry = toTreeEntry(entry, paths);
      if (treeEntry === undefined) entry.resume();
      else yield treeEntry.kind === 'file' ? { ...treeEntry, data: fileData(treeEntry.data) } : treeEntry;
    }
    await feeding;
  } catch (error) {
    throw classify(error);
  } finally {
    extract.destroy();
  }
}

type Source = Extract extends AsyncIterable<infer S> ? S : never;

function toTreeEntry(entry: Source, paths: TreePaths): TreeEntry | undefined {
  const { header } = entry;
  const name = header.name;
  // tar-stream gives null for a type flag it does not know (GNU sparse, vendor types); its
  // typings leave that out, as they leave out the extended-header types it may pass on.
  const type = header.type as string | null;
  switch (type) {
    case 'file':
    case 'contiguous-file': {
      const path = normalizeEntryPath(name);
      paths.addFile(path, name);
      const mode = (header.mode & 0o111) === 0 ? '100644' : '100755';
      // streamx types chunks as unknown; in Node, tar-stream's entry chunks are Buffers.
      return { kind: 'file', path, mode, size: header.size, data: entry as AsyncIterable<Buffer> };
    }
    case 'symlink': {
      const path = normalizeEntryPath(name);
      if (/(^|\/)\.gitmodules$/i.test(path)) throw refuseEntry(name, 'a symlinked .gitmodules is not allowed');
      const target = header.linkname ?? '';
      if (target === '') throw refuseEntry(name, 'the symlink has no target');
      paths.addFile(path, name);
      return { kind: 'symlink', path, mode: '120000', target: Buffer.from(target, 'utf8') };
    }
    case 'directory':
      paths.addDirectory(normalizeEntryPath(name), name);
      return undefined;
    case 'link':
      throw refuseEntry(name, `hard links are not allowed (links to "${header.linkname ?? ''}")`);
    case 'character-device':
    case 'block-device':
      throw refuseEntry(name, 'device files are not allowed');
    case 'fifo':
      throw refuseEntry(name, 'FIFOs are not allowed');
    default:
      // Extended headers (pax, GNU long names) are folded into the next entry by tar-stream.
      if (type !== null && (type.startsWith('pax-') || type.startsWith('gnu-'))) return undefined;
      throw refuseEntry(name, `its entry type (${type ?? 'unknown'}) is not supported`);
  }
}

interface Sniffed {
  readonly gzip: boolean;
  readonly chunks: AsyncIterable<Buffer>;
}

/** Reads just enough to see the gzip magic, then hands on every byte, those included. */
async function sniff(archive: Readable): Promise<Sniffed> {
  const iterator = (archive as AsyncIterable<Buffer | string | Uint8Array>)[Symbol.asyncIterator]();
  let head = Buffer.alloc(0);
  while (head.length < GZIP_MAGIC.length) {
    const next = await iterator.next();
    if (next.done === true) break;
    head = Buffer.concat([head, toBuffer(next.value)]);
  }
  if (head.length === 0) throw new InputError('the snapshot archive is empty', { code: 'snapshot_archive_invalid' });
  const gzip = head[0] === GZIP_MAGIC[0] && head[1] === GZIP_MAGIC[1];
  async function* chunks(): AsyncGenerator<Buffer> {
    try {
      yield head;
      for (;;) {
        const next = await iterator.next();
        if (next.done === true) return;
        yield toBuffer(next.value);
      }
    } finally {
      await iterator.return?.();
    }
  }
  return { gzip, chunks: chunks() };
}

function toBuffer(chunk: Buffer | string | Uint8Array): Buffer {
  return typeof chunk === 'string' ? Buffer.from(chunk) : Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk);
}
