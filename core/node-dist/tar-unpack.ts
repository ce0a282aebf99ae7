import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, symlink } from 'node:fs/promises';
import { dirname, join, posix, relative, resolve, sep } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { createGunzip } from 'node:zlib';
import { NodeDistError } from './node-dist-error.js';

/**
 * Unpacks a `.tar.gz` into `dest`, dropping the first path component (`node-v20.20.2-linux-x64/`).
 * Files keep their permission bits; symlinks must point inside `dest`; absolute paths, `..`,
 * hard links and devices are refused, so an archive cannot write outside the folder.
 */
export async function unpackTarGz(archive: string, dest: string): Promise<void> {
  const root = resolve(dest);
  await mkdir(root, { recursive: true });
  // Loaded here, not at start: an idle svc-runner listener never unpacks and stays small (npm run bench:runner).
  // tar-stream is CommonJS: its module.exports is `default` both under Node's loader and in the
  // esbuild bundle (which has no named exports for it).
  const { default: tarStream } = await import('tar-stream');
  const extract = tarStream.extract();
  const feeding = pipeline(createReadStream(archive), createGunzip(), extract);
  feeding.catch(() => undefined); // awaited below, or superseded by the error that stopped the loop
  try {
    for await (const entry of extract) {
      const { header } = entry;
      const target = entryTarget(root, header.name);
      const type = header.type as string | null;
      if (target === undefined || type === 'pax-header' || type === 'pax-global-header') {
        entry.resume();
        continue;
      }
      if (type === 'directory') {
        await mkdir(target, { recursive: true });
        entry.resume();
      } else if (type === 'file' || type === 'contiguous-file') {
        await mkdir(dirname(target), { recursive: true });
        await pipeline(entry, createWriteStream(target, { mode: (header.mode ?? 0o644) & 0o777 }));
      } else if (type === 'symlink') {
        const link = header.linkname ?? '';
        const pointsTo = resolve(dirname(target), link);
        if (posix.isAbsolute(link) || !inside(root, pointsTo)) throw new NodeDistError(`the archive's symlink ${header.name} points outside it (${link})`);
        await mkdir(dirname(target), { recursive: true });
        await symlink(link, target);
        entry.resume();
      } else {
        throw new NodeDistError(`the archive holds ${header.name} of type ${String(type)}, which is not unpacked (only files, folders and inner symlinks are)`);
      }
    }
    await feeding;
  } catch (error) {
    if (error instanceof NodeDistError) throw error;
    throw new NodeDistError(`cannot unpack ${archive}: ${(error as Error).message}`, { cause: error });
  } finally {
    extract.destroy();
  }
}

function entryTarget(root: string, name: string): string | undefined {
  const parts = name.split('/').filter((part) => part !== '' && part !== '.');
  if (name.startsWith('/') || parts.includes('..')) throw new NodeDistError(`the archive holds an unsafe path: ${name}`);
  const stripped = parts.slice(1);
  if (stripped.length === 0) return undefined;
  return join(root, ...stripped);
}

function inside(root: string, path: string): boolean {
  const rel = relative(root, path);
  return rel === '' || (!rel.startsWith(`..${sep}`) && rel !== '..' && !rel.startsWith(sep));
}
