import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { SnapshotHistory } from '../../core/ports/index.js';
import type { CheckoutTarget } from './checkout-target.js';

/**
 * What a job's git sees: a throw-away bare repository that borrows the snapshot store's objects
 * (`objects/info/alternates`) and names only the run's commit and its history: the run's ref and
 * `HEAD` at the commit, and the tags recorded with it (`refs/tags/<name>`, the tags of the
 * user's repository that point into that history). The store's own refs (retention refs and tag
 * sets of every local run of the repository) are never advertised, and a clone gets the run's
 * branch checked out instead of an empty repository. Where the store's history is cut (a
 * shallow clone was sent), its `shallow` file is copied in, so upload-pack serves what exists and
 * tells the client where it stops, as a clone of a shallow clone does. Written by hand (a handful
 * of small files) rather than by `git init`, since one is made per request; git recognises it by
 * `HEAD`, `objects/` and `refs/`.
 */
export interface RepositoryView {
  readonly gitDir: string;
  remove(): Promise<void>;
}

const SHA256 = /^[0-9a-f]{64}$/;

export async function createRepositoryView(storeGitDir: string, target: CheckoutTarget, history: SnapshotHistory): Promise<RepositoryView> {
  const gitDir = await mkdtemp(join(tmpdir(), 'svc-checkout-'));
  const remove = () => rm(gitDir, { recursive: true, force: true });
  try {
    await mkdir(join(gitDir, 'objects', 'info'), { recursive: true });
    await mkdir(join(gitDir, 'refs'));
    await writeFile(join(gitDir, 'objects', 'info', 'alternates'), `${join(storeGitDir, 'objects')}\n`);
    const sha256 = SHA256.test(target.sha);
    const config = sha256
      ? '[core]\n\trepositoryformatversion = 1\n\tbare = true\n[extensions]\n\tobjectformat = sha256\n'
      : '[core]\n\trepositoryformatversion = 0\n\tbare = true\n';
    await writeFile(join(gitDir, 'config'), config);
    const ref = advertisedRef(target.ref);
    // packed-refs: no path is made from a ref's name, so no name can escape the directory. No
    // traits: git peels the annotated tags itself and sorts the lines as it reads them.
    await writeFile(join(gitDir, 'packed-refs'), packedRefs(target.sha, ref, history));
    await writeFile(join(gitDir, 'HEAD'), ref?.startsWith('refs/heads/') === true ? `ref: ${ref}\n` : `${target.sha}\n`);
    if (history.shallow.length > 0) await writeFile(join(gitDir, 'shallow'), `${history.shallow.join('\n')}\n`);
    return { gitDir, remove };
  } catch (error) {
    await remove();
    throw error;
  }
}

/**
 * The tags, then the run's ref (a tag run's own ref names the run's commit, whatever the tag set
 * says). The store checked the tag names as git does; a line of packed-refs only needs them
 * free of whitespace, which is checked again here.
 */
function packedRefs(sha: string, ref: string | undefined, history: SnapshotHistory): string {
  const lines = new Map<string, string>();
  for (const tag of history.tags) {
    if (/^[^\s\x00-\x1f\x7f]+$/.test(tag.name)) lines.set(`refs/tags/${tag.name}`, tag.object);
  }
  if (ref !== undefined) lines.set(ref, sha);
  return [...lines].map(([name, object]) => `${object} ${name}\n`).join('');
}

/**
 * The run's ref when git would accept it as a ref name (a conservative subset of
 * `git check-ref-format`); otherwise none, and only `HEAD` names the commit.
 */
export function advertisedRef(ref: string): string | undefined {
  if (!/^refs\/[A-Za-z0-9._/+-]+$/.test(ref)) return undefined;
  const parts = ref.split('/');
  const bad = parts.some((part) => part === '' || part.startsWith('.') || part.endsWith('.lock') || part.endsWith('.'));
  return bad || ref.includes('..') ? undefined : ref;
}
