import { createWriteStream } from 'node:fs';
import { mkdir, open } from 'node:fs/promises';
import { dirname, join, resolve, sep } from 'node:path';
import { copyZipEntry, readZipDirectory, ZipFormatError, type ZipEntry } from './zip-archive.js';

export interface Unpacked {
  readonly files: number;
  readonly bytes: number;
}

/**
 * Unpacks the zip at `zipPath` into `target` as download-artifact does: every file at its path
 * under `target` (directories made as needed, existing files replaced, permissions not kept: the
 * artifact zip does not carry them). Every name is checked before anything is written: one that
 * would land outside `target` (`..`, an absolute path, a drive) refuses the whole archive.
 */
export async function unpackZip(zipPath: string, target: string): Promise<Unpacked> {
  const file = await open(zipPath, 'r');
  try {
    const entries = await readZipDirectory(file, (await file.stat()).size);
    const root = resolve(target);
    const placed = entries.map((entry) => ({ entry, path: destination(root, entry) }));
    await mkdir(root, { recursive: true });
    let files = 0;
    let bytes = 0;
    for (const { entry, path } of placed) {
      if (path === undefined) continue;
      if (isDirectory(entry)) {
        await mkdir(path, { recursive: true });
        continue;
      }
      await mkdir(dirname(path), { recursive: true });
      await copyZipEntry(zipPath, file, entry, createWriteStream(path));
      files += 1;
      bytes += entry.size;
    }
    return { files, bytes };
  } finally {
    await file.close();
  }
}

function isDirectory(entry: ZipEntry): boolean {
  return entry.name.endsWith('/') || entry.name.endsWith('\\');
}

/** Where an entry goes under `root`; undefined for the root itself (`./`). */
function destination(root: string, entry: ZipEntry): string | undefined {
  // Zips made on Windows by some tools separate with backslashes; neither may climb out.
  const parts = entry.name.split(/[\\/]/);
  const refused = entry.name.includes('\0') || /^[a-zA-Z]:/.test(entry.name) || entry.name.startsWith('/') || entry.name.startsWith('\\') || parts.includes('..');
  const kept = parts.filter((part) => part !== '' && part !== '.');
  if (refused) throw new ZipFormatError(`the archive has an entry that would be written outside ${root}: ${JSON.stringify(entry.name)}; nothing was unpacked`);
  if (kept.length === 0) return undefined;
  const path = join(root, ...kept);
  // Belt and braces: whatever join made of it must still be inside.
  if (!path.startsWith(`${root}${sep}`)) throw new ZipFormatError(`the archive has an entry outside ${root}: ${JSON.stringify(entry.name)}; nothing was unpacked`);
  return path;
}
