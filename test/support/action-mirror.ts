/**
 * An action mirror as an operator sets one up (`SVC_ACTIONS_MIRROR_DIR`): bare repositories at
 * `<dir>/<owner>/<repo>.git`, made here with real git from the files a test gives, with branches
 * and tags that later commits can move.
 */
import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

const GIT_ENV = {
  PATH: process.env['PATH'] ?? '/usr/bin:/bin',
  HOME: '/nonexistent',
  GIT_CONFIG_NOSYSTEM: '1',
  GIT_CONFIG_GLOBAL: '/dev/null',
  GIT_AUTHOR_NAME: 'mirror',
  GIT_AUTHOR_EMAIL: 'mirror@example.com',
  GIT_COMMITTER_NAME: 'mirror',
  GIT_COMMITTER_EMAIL: 'mirror@example.com',
};

function git(cwd: string, args: readonly string[]): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile('git', [...args], { cwd, env: GIT_ENV }, (error, stdout, stderr) =>
      error === null ? resolve(stdout.trim()) : reject(new Error(`git ${args.join(' ')}: ${stderr.trim() || error.message}`)),
    );
  });
}

export interface MirrorCommit {
  /** Path → text; files not listed keep their content from the previous commit. */
  readonly files: Readonly<Record<string, string>>;
  /** Tags to point at the commit (moved when they exist). */
  readonly tags?: readonly string[];
  /** The branch it goes on; default `main`. */
  readonly branch?: string;
}

export interface ActionMirror {
  /** The directory to give `SVC_ACTIONS_MIRROR_DIR`. */
  readonly dir: string;
  /** Commits to `owner/repo` (created on first use); answers the commit's sha. */
  commit(nameWithOwner: string, commit: MirrorCommit): Promise<string>;
  remove(): Promise<void>;
}

export async function createActionMirror(): Promise<ActionMirror> {
  const root = await mkdtemp(join(tmpdir(), 'svc-action-mirror-'));
  const dir = join(root, 'mirror');
  const work = new Map<string, string>();
  return {
    dir,
    async commit(nameWithOwner, commit) {
      const [owner = '', repo = ''] = nameWithOwner.split('/');
      const bare = join(dir, owner, `${repo}.git`);
      let tree = work.get(nameWithOwner);
      if (tree === undefined) {
        tree = join(root, 'work', owner, repo);
        await mkdir(tree, { recursive: true });
        await git(tree, ['init', '-q', '-b', 'main']);
        await mkdir(dirname(bare), { recursive: true });
        await git(root, ['init', '-q', '--bare', bare]);
        work.set(nameWithOwner, tree);
      }
      const branch = commit.branch ?? 'main';
      const exists = await git(tree, ['rev-parse', '--verify', '--quiet', `refs/heads/${branch}`]).then(() => true, () => false);
      // A new branch starts from the commit checked out (the unborn main of a new repository).
      await git(tree, exists ? ['checkout', '-q', branch] : ['checkout', '-q', '-b', branch]);
      for (const [path, text] of Object.entries(commit.files)) {
        await mkdir(dirname(join(tree, path)), { recursive: true });
        await writeFile(join(tree, path), text);
      }
      await git(tree, ['add', '-A']);
      await git(tree, ['commit', '-q', '--allow-empty', '-m', `commit to ${branch}`]);
      for (const tag of commit.tags ?? []) await git(tree, ['tag', '-f', tag]);
      await git(tree, ['push', '-q', '--force', bare, `${branch}:refs/heads/${branch}`, ...(commit.tags ?? []).map((tag) => `refs/tags/${tag}:refs/tags/${tag}`)]);
      return git(tree, ['rev-parse', 'HEAD']);
    },
    remove: () => rm(root, { recursive: true, force: true }),
  };
}
