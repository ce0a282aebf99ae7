import { readFile, rename, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { ReadObject } from './read-file.js';

/**
 * The repository's `shallow` file: commits git treats as having no parents, because their
 * parents were never sent (`svc run` from a shallow clone). Without it, gc, the connectivity
 * check and upload-pack would fail on the missing parents; with it, a job's full fetch gets
 * the history that exists and is told where it stops, as a clone of a shallow clone is.
 */
export async function readShallow(gitDir: string): Promise<string[]> {
  let text: string;
  try {
    text = await readFile(join(gitDir, 'shallow'), 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw error;
  }
  return text.split('\n').filter((line) => /^[0-9a-f]{40,64}$/.test(line));
}

/**
 * Recomputes the shallow file from its commits and `sent` (a pack's sender's shallow commits):
 * a commit stays or becomes shallow only while the store holds it and lacks one of its parents.
 * So a shallow upload never cuts a history the store holds whole, and a later upload that
 * brings the parents makes the history whole again. Written beside and renamed in (git reads
 * a whole file or the old one). The caller serialises calls per repository.
 */
export async function updateShallow(gitDir: string, read: ReadObject, sent: readonly string[]): Promise<void> {
  const current = await readShallow(gitDir);
  const candidates = [...new Set([...current, ...sent])];
  const cut = await Promise.all(candidates.map((sha) => lacksParent(read, sha)));
  const kept = candidates.filter((_, index) => cut[index]).sort();
  if (kept.length === current.length && kept.every((sha) => current.includes(sha))) return;
  const path = join(gitDir, 'shallow');
  if (kept.length === 0) {
    await rm(path, { force: true });
    return;
  }
  // git's own lock name: only prune's gc writes the file otherwise, and never beside an import.
  await writeFile(`${path}.lock`, `${kept.join('\n')}\n`);
  await rename(`${path}.lock`, path);
}

/** Whether the store holds the commit `sha` but not all of its parents. */
async function lacksParent(read: ReadObject, sha: string): Promise<boolean> {
  const commit = await read(sha);
  if (commit?.type !== 'commit') return false;
  const end = commit.content.indexOf('\n\n');
  const header = commit.content.toString('latin1', 0, end === -1 ? commit.content.length : end);
  const parents = [...header.matchAll(/^parent ([0-9a-f]+)$/gm)].map((match) => match[1] ?? '');
  const held = await Promise.all(parents.map(async (parent) => (await read(parent)) !== undefined));
  return held.includes(false);
}
