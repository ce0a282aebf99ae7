import { tmpdir } from 'node:os';
import { PassThrough, type Readable } from 'node:stream';
import { gitEnvironment, startGit } from './git-process.js';

export type ArchiveFormat = 'tar.gz' | 'zip';

/**
 * `git archive` of a commit of the snapshot store, every path under `prefix` (GitHub's archives
 * have one top-level directory). The stream ends only once git exited 0 and errors otherwise, so
 * a client never takes a cut archive for a whole one; closing it early stops git.
 */
export async function archiveStream(gitDir: string, sha: string, format: ArchiveFormat, prefix: string): Promise<Readable> {
  const child = await startGit(['archive', `--format=${format}`, `--prefix=${prefix}`, sha], gitEnvironment(tmpdir(), { GIT_DIR: gitDir }));
  child.process.stdin.end();
  const out = new PassThrough();
  child.process.stdout.pipe(out, { end: false });
  void child.exited.then((code) => {
    if (code === 0) out.end();
    else out.destroy(new Error(`git archive ${sha} failed (exit ${code}): ${child.stderr()}`));
  });
  out.once('close', () => {
    if (child.process.exitCode === null && child.process.signalCode === null) child.process.kill('SIGTERM');
  });
  return out;
}
