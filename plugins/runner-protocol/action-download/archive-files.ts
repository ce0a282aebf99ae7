/**
 * What svc reads inside an action's tarball: the runner copies the contents of exactly one
 * top-level directory (the forge's `owner-repo-sha7/`) and fails on anything else, so an archive
 * is checked once before it is stored; and a composite manifest is read from the stored archive
 * when its source cannot read files itself (the forge).
 */
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { createGunzip } from 'node:zlib';
import { extract as tarExtract } from 'tar-stream';

/** Largest file read out of an archive (manifests are a few KiB). */
export const MAX_MANIFEST_BYTES = 1024 * 1024;

type EntryVisitor = (name: string, type: string, entry: AsyncIterable<Buffer>) => Promise<'next' | 'stop'>;

/** Walks a tar.gz's entries (extended headers are folded into the next entry by tar-stream). */
async function walk(archive: Buffer | Readable, visit: EntryVisitor): Promise<void> {
  const extract = tarExtract();
  const source = archive instanceof Readable ? archive : Readable.from([archive]);
  const feeding = pipeline(source, createGunzip(), extract);
  feeding.catch(() => undefined); // a stop below destroys the pipeline; other errors surface through the loop
  try {
    for await (const entry of extract) {
      // tar-stream types pass on extended-header types it may hand out; compare as text.
      const type = String(entry.header.type);
      if ((await visit(entry.header.name, type, entry as AsyncIterable<Buffer>)) === 'stop') return;
      entry.resume();
    }
    await feeding;
  } finally {
    extract.destroy();
  }
}

/**
 * The one top-level directory of a tar.gz (`owner-repo-sha7`), or a message saying what is wrong
 * (not a tar.gz, no entries, files at the top, several directories).
 */
export async function topLevelDirectory(archive: Buffer): Promise<{ readonly dir: string } | { readonly problem: string }> {
  const tops = new Set<string>();
  let loose: string | undefined;
  try {
    await walk(archive, async (name, type) => {
      if (type.startsWith('pax-') || type.startsWith('gnu-')) return 'next';
      const [top, ...rest] = name.replace(/^\.\//, '').split('/');
      if (top === undefined || top === '') return 'next';
      tops.add(top);
      if (rest.filter((part) => part !== '').length === 0 && type !== 'directory') loose = name;
      return 'next';
    });
  } catch (error) {
    return { problem: `it is not a readable tar.gz (${(error as Error).message})` };
  }
  if (loose !== undefined) return { problem: `it has a file at the top level ('${loose}')` };
  const [dir, ...others] = [...tops];
  if (dir === undefined) return { problem: 'it is empty' };
  if (others.length > 0) return { problem: `it has ${tops.size} top-level directories, the runner takes exactly one` };
  return { dir };
}

/** A file's text under the archive's top-level directory (`path` relative to it), or undefined when there is none. */
export async function readArchiveFile(archive: Readable, path: string): Promise<string | undefined> {
  let found: string | undefined;
  await walk(archive, async (name, type, entry) => {
    const relative = name.replace(/^\.\//, '').split('/').slice(1).join('/');
    if (relative !== path || (type !== 'file' && type !== 'contiguous-file')) return 'next';
    const chunks: Buffer[] = [];
    let size = 0;
    for await (const chunk of entry) {
      size += chunk.length;
      if (size > MAX_MANIFEST_BYTES) return 'stop';
      chunks.push(chunk);
    }
    found = Buffer.concat(chunks).toString('utf8');
    return 'stop';
  });
  return found;
}
