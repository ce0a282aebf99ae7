/**
 * The simulated forge's repositories: real git repositories in a temp directory, made from files
 * the test gives, with branches and tags. Archives are `git archive` of a commit with the forge's
 * one top-level directory, `<owner>-<repo>-<sha7>/`. Names are looked up case-insensitively and
 * answered in the case they were created with, as the forge does. git runs with no user or
 * system configuration and a fixed identity and date, so a test's commits are reproducible.
 */
import { execFile } from 'node:child_process';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

export type ArchiveFormat = 'tar.gz' | 'zip';

export interface RepositoryContent {
  /** Path (relative, `/`-separated) → text. */
  readonly files: Readonly<Record<string, string>>;
  /** Tags to point at the new commit (moved if they exist). */
  readonly tags?: readonly string[];
  /** The branch the commit goes on; default `main`. */
  readonly branch?: string;
  readonly message?: string;
}

export interface Repository {
  readonly owner: string;
  readonly name: string;
  readonly fullName: string;
  readonly private: boolean;
  readonly dir: string;
}

const GIT_ENV: Readonly<Record<string, string>> = {
  PATH: process.env['PATH'] ?? '/usr/bin:/bin',
  HOME: '/nonexistent',
  LC_ALL: 'C',
  GIT_CONFIG_NOSYSTEM: '1',
  GIT_CONFIG_GLOBAL: '/dev/null',
  GIT_AUTHOR_NAME: 'Forge Simulator',
  GIT_AUTHOR_EMAIL: 'simulator@forge.invalid',
  GIT_COMMITTER_NAME: 'Forge Simulator',
  GIT_COMMITTER_EMAIL: 'simulator@forge.invalid',
};
/** What a ref may be here: names git takes without revision syntax. */
const PLAIN_REF = /^(?!-)(?!.*\.\.)[A-Za-z0-9_./-]+$/;

function git(cwd: string, args: readonly string[], date: number): Promise<Buffer> {
  const stamp = `${Math.floor(date / 1000)} +0000`;
  return new Promise((resolve, reject) => {
    execFile(
      'git',
      [...args],
      { cwd, env: { ...GIT_ENV, GIT_AUTHOR_DATE: stamp, GIT_COMMITTER_DATE: stamp }, encoding: 'buffer', maxBuffer: 256 * 1024 * 1024 },
      (error, stdout, stderr) => (error === null ? resolve(stdout) : reject(new Error(`git ${args.join(' ')}: ${stderr.toString('utf8').trim() || error.message}`))),
    );
  });
}

export class GitRepositories {
  readonly #root: string;
  readonly #repositories = new Map<string, Repository>();
  /** Commit dates step a second per commit from a fixed start, so shas depend on content only. */
  #date = Date.UTC(2030, 0, 1);

  constructor(root: string) {
    this.#root = root;
  }

  /** Creates `owner/name` with a first commit; answers its sha. */
  async create(fullName: string, content: RepositoryContent, options: { readonly private?: boolean } = {}): Promise<string> {
    const [owner, name, ...rest] = fullName.split('/');
    if (owner === undefined || name === undefined || rest.length > 0) throw new TypeError(`'${fullName}' is not owner/name`);
    if (this.#repositories.has(fullName.toLowerCase())) throw new Error(`the forge already has ${fullName}`);
    const dir = join(this.#root, owner, name);
    mkdirSync(dir, { recursive: true });
    await git(dir, ['init', '-q', '-b', content.branch ?? 'main'], this.#date);
    this.#repositories.set(fullName.toLowerCase(), { owner, name, fullName, private: options.private === true, dir });
    return this.commit(fullName, content);
  }

  /** Adds a commit replacing the listed files (others stay); answers its sha. */
  async commit(fullName: string, content: RepositoryContent): Promise<string> {
    const repository = this.get(fullName);
    if (repository === undefined) throw new Error(`the forge has no ${fullName}`);
    const branch = content.branch ?? 'main';
    this.#date += 1000;
    const run = (args: readonly string[]) => git(repository.dir, args, this.#date);
    const branches = (await run(['branch', '--list', '--format=%(refname:short)'])).toString('utf8').split('\n');
    if (branches.includes(branch)) await run(['checkout', '-q', branch]);
    else await run(['checkout', '-q', '-b', branch]);
    for (const [path, text] of Object.entries(content.files)) {
      const file = join(repository.dir, path);
      rmSync(file, { force: true });
      mkdirSync(dirname(file), { recursive: true });
      writeFileSync(file, text);
    }
    await run(['add', '-A']);
    await run(['commit', '-q', '--allow-empty', '-m', content.message ?? 'commit']);
    for (const tag of content.tags ?? []) await run(['tag', '-f', tag]);
    return (await run(['rev-parse', 'HEAD'])).toString('utf8').trim();
  }

  /** Points `ref` (`refs/pull/7/merge`) at `sha`, or deletes it (a branch that is gone). */
  async updateRef(fullName: string, ref: string, sha: string | undefined): Promise<void> {
    const repository = this.get(fullName);
    if (repository === undefined) throw new Error(`the forge has no ${fullName}`);
    if (!PLAIN_REF.test(ref) || !ref.startsWith('refs/')) throw new TypeError(`'${ref}' is not a full ref name`);
    await git(repository.dir, sha === undefined ? ['update-ref', '-d', ref] : ['update-ref', ref, sha], this.#date);
  }

  get(fullName: string): Repository | undefined {
    return this.#repositories.get(fullName.toLowerCase());
  }

  /** The commit a ref names (sha, short sha, `heads/x`, `tags/x`, or a plain tag or branch name), as the forge's `commits/{ref}` resolves it. */
  async resolve(repository: Repository, ref: string): Promise<string | undefined> {
    if (!PLAIN_REF.test(ref)) return undefined;
    try {
      return (await git(repository.dir, ['rev-parse', '--verify', '--quiet', '--end-of-options', `${ref}^{commit}`], this.#date)).toString('utf8').trim();
    } catch {
      return undefined;
    }
  }

  /** What `refs/<qualified>` (`tags/v1`, `heads/main`) points at, exactly that ref; undefined when there is none. */
  async ref(repository: Repository, qualified: string): Promise<{ readonly sha: string; readonly type: string } | undefined> {
    if (!PLAIN_REF.test(qualified)) return undefined;
    try {
      const sha = (await git(repository.dir, ['rev-parse', '--verify', '--quiet', '--end-of-options', `refs/${qualified}`], this.#date)).toString('utf8').trim();
      const type = (await git(repository.dir, ['cat-file', '-t', sha], this.#date)).toString('utf8').trim();
      return { sha, type };
    } catch {
      return undefined;
    }
  }

  /** A file (a blob, not a directory) at a commit: its bytes and blob sha; undefined when there is none. */
  async file(repository: Repository, sha: string, path: string): Promise<{ readonly content: Buffer; readonly blob: string } | undefined> {
    if (path.split('/').some((part) => part === '' || part === '.' || part === '..')) return undefined;
    try {
      const blob = (await git(repository.dir, ['rev-parse', '--verify', '--quiet', '--end-of-options', `${sha}:${path}`], this.#date)).toString('utf8').trim();
      if ((await git(repository.dir, ['cat-file', '-t', blob], this.#date)).toString('utf8').trim() !== 'blob') return undefined;
      return { content: await git(repository.dir, ['cat-file', 'blob', blob], this.#date), blob };
    } catch {
      return undefined;
    }
  }

  /** Author, committer, message, tree and parents of a commit. */
  async describe(repository: Repository, sha: string): Promise<{ readonly tree: string; readonly parents: readonly string[]; readonly author: Signature; readonly committer: Signature; readonly message: string }> {
    const raw = (await git(repository.dir, ['show', '-s', '--format=%T%x00%P%x00%an%x00%ae%x00%aI%x00%cn%x00%ce%x00%cI%x00%B', sha], this.#date)).toString('utf8');
    const [tree = '', parents = '', an = '', ae = '', ad = '', cn = '', ce = '', cd = '', ...message] = raw.split('\0');
    const date = (iso: string) => new Date(iso).toISOString().replace(/\.\d{3}Z$/, 'Z');
    return {
      tree,
      parents: parents.split(' ').filter((parent) => parent !== ''),
      author: { name: an, email: ae, date: date(ad) },
      committer: { name: cn, email: ce, date: date(cd) },
      message: message.join('\0').trimEnd(),
    };
  }

  /** The archive of a commit, with the forge's top-level directory. */
  archive(repository: Repository, sha: string, format: ArchiveFormat): Promise<Buffer> {
    const prefix = `${repository.owner}-${repository.name}-${sha.slice(0, 7)}/`;
    return git(repository.dir, ['archive', `--format=${format}`, `--prefix=${prefix}`, '--end-of-options', sha], this.#date);
  }
}

export interface Signature {
  readonly name: string;
  readonly email: string;
  readonly date: string;
}
