import { readdir, stat } from 'node:fs/promises';
import { basename, dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import { InputError } from '../../../core/kernel/cli/index.js';
import { localGit, workTreeRoot } from './snapshot/index.js';

export interface LocalRepository {
  /** The directory the run sees as the repository's root (its `.github/workflows` is there). */
  readonly root: string;
  /** The git work tree's top, when `root` is in one. */
  readonly gitTop?: string;
  /** `owner/repo`: from the `origin` remote when `root` is the work tree's top, else `local/<dir>`. */
  readonly name: string;
}

export const WORKFLOWS_DIR = '.github/workflows';

/**
 * The repository `svc run` runs, found from `cwd`: the nearest directory from `cwd` up to the
 * git work tree's top that has a `.github/workflows` directory, else the top itself (outside
 * git, `cwd`). So `svc run` works from any subdirectory of a repository, and a directory with
 * its own workflows inside a bigger repository (a copied example, a monorepo project) runs as
 * a repository of its own, as it would once pushed on its own.
 */
export async function findLocalRepository(cwd: string): Promise<LocalRepository> {
  const start = resolve(cwd);
  // The origin is asked for beside the top (git finds the same repository from `start`), so
  // the two git processes run at once; a directory outside git just has no origin.
  const origin = originName(start).catch(() => undefined);
  const gitTop = await workTreeRoot(start);
  const limit = gitTop ?? start;
  let root = limit;
  for (let dir = start; ; dir = dirname(dir)) {
    if (await isDirectory(join(dir, WORKFLOWS_DIR))) {
      root = dir;
      break;
    }
    if (dir === limit || dirname(dir) === dir || !isInside(limit, dir)) break;
  }
  const name = root === gitTop ? ((await origin) ?? localName(root)) : localName(root);
  return { root, ...(gitTop === undefined ? {} : { gitTop }), name };
}

/** The workflow files directly in `<root>/.github/workflows`, as repository paths, sorted. */
export async function listWorkflows(root: string): Promise<string[]> {
  let names: string[];
  try {
    names = await readdir(join(root, WORKFLOWS_DIR));
  } catch {
    return [];
  }
  return names
    .filter((name) => /\.ya?ml$/i.test(name))
    .sort()
    .map((name) => `${WORKFLOWS_DIR}/${name}`);
}

/**
 * The workflow to run, as a path from the repository's root. `-f` is taken relative to `cwd`
 * first (what the shell completes), then to the root (GitHub's `.github/workflows/ci.yml`
 * spelling from anywhere in the repository). Without `-f`, the only workflow there is.
 */
export async function resolveWorkflowFile(repository: LocalRepository, file: string | undefined, cwd: string): Promise<string> {
  const workflows = await listWorkflows(repository.root);
  const listing = workflows.length === 0 ? '' : `; its workflows:\n${workflows.map((path) => `  ${path}`).join('\n')}`;
  if (file === undefined) {
    const [only] = workflows;
    if (workflows.length === 1 && only !== undefined) return only;
    if (workflows.length === 0) throw new InputError(`no workflow files in ${join(repository.root, WORKFLOWS_DIR)}; write one, or name a file with -f`, { code: 'no_workflow' });
    throw new InputError(`${repository.root} has ${workflows.length} workflows; choose one with -f${listing}`, { code: 'ambiguous_workflow' });
  }
  const candidates = isAbsolute(file) ? [file] : [resolve(cwd, file), resolve(repository.root, file)];
  for (const candidate of candidates) {
    if (!(await isFile(candidate))) continue;
    if (!isInside(repository.root, candidate)) {
      throw new InputError(`${file} is outside the repository at ${repository.root}; run svc run from the repository that holds it`, { code: 'workflow_outside' });
    }
    return relative(repository.root, candidate).split(sep).join('/');
  }
  const looked = resolve(cwd) === repository.root ? `in the repository root ${repository.root}` : `from ${resolve(cwd)} and from the repository root ${repository.root}`;
  throw new InputError(`no workflow file ${file} (looked ${looked})${listing}`, { code: 'workflow_not_found' });
}

async function originName(root: string): Promise<string | undefined> {
  const { code, stdout } = await localGit(root, ['remote', 'get-url', 'origin'], [1, 2, 128]);
  if (code !== 0) return undefined;
  // https://host/owner/repo(.git), git@host:owner/repo(.git), ssh://git@host/owner/repo
  const match = /[/:]([A-Za-z0-9_.-]+)\/([A-Za-z0-9_.-]+?)(?:\.git)?\/?$/.exec(stdout.toString('utf8').trim());
  const [, owner, repo] = match ?? [];
  return owner && repo && !['.', '..'].includes(owner) && !['.', '..'].includes(repo) ? `${owner}/${repo}` : undefined;
}

function localName(root: string): string {
  const name = basename(root).replace(/[^A-Za-z0-9_.-]/g, '-');
  return `local/${name === '' || name === '.' || name === '..' ? 'repository' : name}`;
}

function isInside(parent: string, child: string): boolean {
  const path = relative(parent, child);
  return path === '' || (!path.startsWith('..') && !isAbsolute(path));
}

async function isDirectory(path: string): Promise<boolean> {
  return stat(path).then((info) => info.isDirectory(), () => false);
}

async function isFile(path: string): Promise<boolean> {
  return stat(path).then((info) => info.isFile(), () => false);
}
