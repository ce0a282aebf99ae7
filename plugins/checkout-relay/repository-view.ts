import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { CheckoutTarget } from './checkout-target.js';

/**
 * What a job's git sees: a throw-away bare repository that borrows the snapshot store's objects
 * (`objects/info/alternates`) and has exactly two names, the run's ref and `HEAD`, both at the
 * run's commit. The store's own refs (`refs/svc/snapshots/<sha>/<expiry>`, one per snapshot of
 * every local run of the repository) are never advertised, and a clone gets the run's branch
 * checked out instead of an empty repository. Written by hand (a handful of small files) rather
 * than by `git init`, since one is made per request; git recognises it by `HEAD`, `objects/`
 * and `refs/`.
 */
export interface RepositoryView {
  readonly gitDir: string;
  remove(): Promise<void>;
}

const SHA256 = /^[0-9a-f]{64}$/;

export async function createRepositoryView(storeGitDir: string, target: CheckoutTarget): Promise<RepositoryView> {
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
    // packed-refs: no path is made from the ref's name, so no name can escape the directory.
    await writeFile(join(gitDir, 'packed-refs'), ref === undefined ? '' : `# pack-refs with: peeled fully-peeled sorted \n${target.sha} ${ref}\n`);
    await writeFile(join(gitDir, 'HEAD'), ref?.startsWith('refs/heads/') === true ? `ref: ${ref}\n` : `${target.sha}\n`);
    return { gitDir, remove };
  } catch (error) {
    await remove();
    throw error;
  }
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
