import { randomUUID } from 'node:crypto';
import type { Dirent } from 'node:fs';
import { mkdir, open, readdir, rename, rm, rmdir, stat, unlink, type FileHandle } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import type { Readable } from 'node:stream';
import { ConflictError } from '../../core/kernel/index.js';
import type { BlobInfo, BlobStore, Clock } from '../../core/ports/index.js';
import { assertBlobKey, assertBlobPrefix, isKeySegment } from './blob-keys.js';

/**
 * Blobs as files under one root directory, the key being the relative path. Writes go to a
 * temp file beside the target (its name has a `~`, which no key segment can contain) and are
 * renamed into place after an fsync, so readers see the old blob or the new one, never half.
 * Modification times come from the injected clock, so age-based policies can be tested.
 */
export function createFilesystemBlobStore(root: string, clock: Clock): BlobStore {
  const pathOf = (key: string): string => join(root, ...assertBlobKey(key).split('/'));

  return {
    kind: 'filesystem',

    async put(key, data) {
      const path = pathOf(key);
      const temp = `${path}.~${randomUUID()}`;
      const handle = await createTemp(temp, key);
      const modifiedAt = clock.now();
      let size: number;
      try {
        size = await writeAll(handle, data);
        await handle.sync();
        const time = new Date(modifiedAt);
        await handle.utimes(time, time);
      } catch (error) {
        await handle.close().catch(() => undefined);
        await rm(temp, { force: true });
        throw error;
      }
      await handle.close();
      try {
        await rename(temp, path);
      } catch (error) {
        await rm(temp, { force: true });
        if (isCode(error, 'EISDIR', 'ENOTEMPTY', 'EEXIST')) throw conflict(key, error);
        throw error;
      }
      return { key, size, modifiedAt };
    },

    async get(key) {
      let handle: FileHandle;
      try {
        handle = await open(pathOf(key), 'r');
      } catch (error) {
        if (isCode(error, 'ENOENT', 'ENOTDIR')) return undefined;
        throw error;
      }
      if (!(await handle.stat()).isFile()) {
        await handle.close();
        return undefined;
      }
      return handle.createReadStream({ highWaterMark: IO_CHUNK_BYTES });
    },

    async stat(key) {
      return statBlob(pathOf(key), key);
    },

    async delete(key) {
      const path = pathOf(key);
      try {
        await unlink(path);
      } catch (error) {
        if (isCode(error, 'ENOENT', 'ENOTDIR', 'EISDIR', 'EPERM')) return false;
        throw error;
      }
      await pruneEmptyParents(root, dirname(path));
      return true;
    },

    async *list(prefix) {
      assertBlobPrefix(prefix);
      const slash = prefix.lastIndexOf('/');
      const directoryKey = slash === -1 ? '' : prefix.slice(0, slash);
      for await (const info of walk(root, directoryKey)) {
        if (info.key.startsWith(prefix)) yield info;
      }
    },
  };

  async function createTemp(temp: string, key: string): Promise<FileHandle> {
    // A concurrent delete may remove the freshly made directory before the file exists in it.
    for (let attempt = 0; ; attempt += 1) {
      try {
        await mkdir(dirname(temp), { recursive: true });
        return await open(temp, 'wx');
      } catch (error) {
        if (isCode(error, 'ENOTDIR', 'EEXIST')) throw conflict(key, error);
        if (!isCode(error, 'ENOENT') || attempt >= 3) throw error;
      }
    }
  }
}

/**
 * Reads and writes move 1 MiB at a time: HTTP bodies arrive in ~64 KiB chunks, and one syscall
 * per chunk made large blobs (cache entries, artifacts) several times slower than `cp`.
 */
const IO_CHUNK_BYTES = 1024 * 1024;

async function writeAll(handle: FileHandle, data: Buffer | Readable): Promise<number> {
  if (Buffer.isBuffer(data)) {
    await handle.writeFile(data);
    return data.length;
  }
  let size = 0;
  let pending: Buffer[] = [];
  let pendingBytes = 0;
  // writeFile on a handle writes all of it from the current position, looping on short writes.
  const flush = async (): Promise<void> => {
    if (pendingBytes === 0) return;
    await handle.writeFile(pending.length === 1 ? (pending[0] as Buffer) : Buffer.concat(pending, pendingBytes));
    pending = [];
    pendingBytes = 0;
  };
  for await (const chunk of data as AsyncIterable<Buffer | string | Uint8Array>) {
    const bytes = typeof chunk === 'string' ? Buffer.from(chunk) : Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
    pending.push(bytes);
    pendingBytes += bytes.length;
    size += bytes.length;
    if (pendingBytes >= IO_CHUNK_BYTES) await flush();
  }
  await flush();
  return size;
}

async function statBlob(path: string, key: string): Promise<BlobInfo | undefined> {
  try {
    const info = await stat(path);
    return info.isFile() ? { key, size: info.size, modifiedAt: Math.round(info.mtimeMs) } : undefined;
  } catch (error) {
    if (isCode(error, 'ENOENT', 'ENOTDIR')) return undefined;
    throw error;
  }
}

/** Depth-first, names sorted within each directory; temp files and foreign names are skipped. */
async function* walk(root: string, directoryKey: string): AsyncGenerator<BlobInfo> {
  let entries: Dirent[];
  try {
    entries = await readdir(directoryKey === '' ? root : join(root, ...directoryKey.split('/')), { withFileTypes: true });
  } catch (error) {
    if (isCode(error, 'ENOENT', 'ENOTDIR')) return;
    throw error;
  }
  entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  for (const entry of entries) {
    if (!isKeySegment(entry.name)) continue;
    const key = directoryKey === '' ? entry.name : `${directoryKey}/${entry.name}`;
    if (entry.isDirectory()) yield* walk(root, key);
    else if (entry.isFile()) {
      const info = await statBlob(join(root, ...key.split('/')), key);
      if (info !== undefined) yield info;
    }
  }
}

/** Removes directories left empty by a delete, so a key's prefix can later be a blob itself. */
async function pruneEmptyParents(root: string, directory: string): Promise<void> {
  let current = directory;
  while (current !== root && current.startsWith(root)) {
    try {
      await rmdir(current);
    } catch {
      return; // not empty (or gone): someone else's blobs live here
    }
    current = dirname(current);
  }
}

function conflict(key: string, cause: unknown): ConflictError {
  return new ConflictError(`blob key ${key} conflicts with an existing blob: a key cannot be both a blob and the prefix of another`, {
    code: 'blob_key_conflict',
    cause,
  });
}

function isCode(error: unknown, ...codes: string[]): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' && codes.includes(code);
}
