/**
 * The actions an in-process server can hand out (SVC_ACTIONS_MIRROR_DIR): a server profile may
 * name repositories with their files; each becomes a bare repository with one commit, tagged with
 * the ref the workflows use. The runner does not care where the archive comes from; this gives
 * the in-process server a source without the network.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

export interface MirroredAction {
  readonly ref: string;
  readonly files: Readonly<Record<string, string>>;
}

const REPOSITORY = /^[A-Za-z0-9_.-]+\/[A-Za-z0-9_.-]+$/;

/** Writes the repositories under `root` (`<owner>/<repo>.git`); returns `root`. */
export function createActionMirror(root: string, actions: Readonly<Record<string, MirroredAction>>): string {
  const env = {
    PATH: process.env.PATH ?? '/usr/bin:/bin',
    HOME: root,
    GIT_CONFIG_NOSYSTEM: '1',
    GIT_AUTHOR_NAME: 'replay',
    GIT_AUTHOR_EMAIL: 'replay@localhost',
    GIT_COMMITTER_NAME: 'replay',
    GIT_COMMITTER_EMAIL: 'replay@localhost',
    GIT_AUTHOR_DATE: '2026-01-01T00:00:00Z',
    GIT_COMMITTER_DATE: '2026-01-01T00:00:00Z',
  };
  const git = (cwd: string, ...args: string[]) => execFileSync('git', args, { cwd, env, stdio: 'pipe' });
  for (const [name, action] of Object.entries(actions)) {
    if (!REPOSITORY.test(name)) throw new Error(`mirror: '${name}' is not owner/repo`);
    const bare = join(root, `${name}.git`);
    mkdirSync(bare, { recursive: true });
    git(bare, 'init', '--bare', '--quiet');
    const work = mkdtempSync(join(root, '.work-'));
    try {
      git(work, 'init', '--quiet');
      for (const [path, content] of Object.entries(action.files)) {
        mkdirSync(dirname(join(work, path)), { recursive: true });
        writeFileSync(join(work, path), content);
      }
      git(work, 'add', '--all');
      git(work, 'commit', '--quiet', '-m', `${name}@${action.ref}`);
      git(work, 'tag', action.ref);
      git(work, 'push', '--quiet', bare, 'HEAD:refs/heads/main', `refs/tags/${action.ref}`);
    } finally {
      rmSync(work, { recursive: true, force: true });
    }
  }
  return root;
}
