import { copyFile, mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir, userInfo } from 'node:os';
import { delimiter, join, resolve } from 'node:path';
import { LocalGitError, localGit, localGitText } from './local-git.js';
import type { WorkingTreeState } from './working-tree-state.js';

/** Where git keeps the repository's parts, as `git rev-parse --git-path` says (linked work trees included). */
export interface RepositoryPaths {
  readonly index: string;
  readonly objects: string;
  readonly shallow: string;
  /** `sha1` or `sha256`. */
  readonly objectFormat: string;
}

export async function repositoryPaths(root: string): Promise<RepositoryPaths> {
  const text = await localGitText(root, ['rev-parse', '--git-path', 'index', '--git-path', 'objects', '--git-path', 'shallow', '--show-object-format']);
  const [index = '', objects = '', shallow = '', objectFormat = 'sha1'] = text.split('\n');
  return { index: resolve(root, index), objects: resolve(root, objects), shallow: resolve(root, shallow), objectFormat };
}

/** A commit of the working tree, whose new objects live in a temporary object directory until `remove`. */
export interface WorkingTreeCommit {
  readonly sha: string;
  /** What lets git (pack-objects) see the new objects beside the repository's. */
  readonly env: Readonly<Record<string, string>>;
  remove(): Promise<void>;
}

/**
 * Commits the working tree at `root` on top of HEAD without touching the repository: a copy of
 * the index in a temporary directory (so git's stat cache spares re-reading unchanged files),
 * `git add -A` into it (modified, deleted and untracked-not-ignored files, as `git status` sees
 * them; the user's ignore rules and attributes apply, so the tree is what `git commit -a` of
 * everything would make), `write-tree` and `commit-tree`, every new object written into a
 * temporary object directory that borrows the repository's objects. No ref, index or object of
 * the repository changes. Author and committer are the user's git identity; without one
 * configured, the login name at `localhost`. Nested repositories (untracked directories with
 * their own `.git`, which `git add` would record as gitlinks to commits no one can fetch) stay
 * out; submodules stay gitlinks.
 */
export async function commitWorkingTree(root: string, paths: RepositoryPaths, state: WorkingTreeState): Promise<WorkingTreeCommit> {
  const temp = await mkdtemp(join(tmpdir(), 'svc-run-'));
  const remove = () => rm(temp, { recursive: true, force: true });
  try {
    const objects = join(temp, 'objects');
    await mkdir(objects);
    const index = join(temp, 'index');
    await copyFile(paths.index, index).catch((error: NodeJS.ErrnoException) => {
      if (error.code !== 'ENOENT') throw error; // a repository that never had an index
    });
    const borrowed = process.env['GIT_ALTERNATE_OBJECT_DIRECTORIES'];
    const env = {
      GIT_INDEX_FILE: index,
      GIT_OBJECT_DIRECTORY: objects,
      GIT_ALTERNATE_OBJECT_DIRECTORIES: borrowed === undefined || borrowed === '' ? paths.objects : `${paths.objects}${delimiter}${borrowed}`,
    };
    const excluded = state.nested.map((path) => `:(exclude,literal,top)${path}`);
    // A split index would write its shared part into the repository's .git.
    await localGit(root, ['-c', 'core.splitIndex=false', 'add', '--all', '--', ':/', ...excluded], [], { env });
    const tree = await localGitText(root, ['write-tree'], { env });
    const args = ['commit-tree', tree, ...(state.head === undefined ? [] : ['-p', state.head]), '--no-gpg-sign', '-F', '-'];
    const sha = await commitTree(root, args, env, commitMessage(state));
    return { sha, env, remove };
  } catch (error) {
    await remove();
    throw error;
  }
}

function commitMessage(state: WorkingTreeState): string {
  const of = state.head === undefined ? 'before the first commit' : `of ${state.branch ?? 'HEAD'} (${state.head.slice(0, 12)})`;
  return `Working tree ${of} with uncommitted changes\n\nMade by svc run from the files on disk: changed, staged, deleted and untracked\nfiles that are not ignored. It is not part of the repository.\n`;
}

/**
 * `git commit-tree`, with the user's identity; where git finds none (no user.email and no way to
 * guess one, or an empty name), it is given the login name (at `localhost`) for what it lacks.
 */
async function commitTree(root: string, args: readonly string[], env: Readonly<Record<string, string>>, input: string): Promise<string> {
  let identity: Record<string, string> = {};
  for (let attempt = 0; ; attempt += 1) {
    try {
      return await localGitText(root, args, { env: { ...env, ...identity }, input });
    } catch (error) {
      if (attempt === 2 || !(error instanceof LocalGitError) || !/identity unknown|auto-detect|empty ident name/i.test(error.stderr)) throw error;
      identity = { ...identity, ...fallbackIdentity(error.stderr) };
    }
  }
}

function fallbackIdentity(stderr: string): Record<string, string> {
  const login = safeLogin();
  const keep = (name: string, value: string): Record<string, string> => (process.env[name] ? {} : { [name]: value });
  if (/empty ident name/i.test(stderr)) return { ...keep('GIT_AUTHOR_NAME', login), ...keep('GIT_COMMITTER_NAME', login) };
  return { ...keep('GIT_AUTHOR_EMAIL', `${login}@localhost`), ...keep('GIT_COMMITTER_EMAIL', `${login}@localhost`) };
}

function safeLogin(): string {
  try {
    return userInfo().username || 'svc';
  } catch {
    return 'svc';
  }
}
