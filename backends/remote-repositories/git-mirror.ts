/**
 * The local mirror (`SVC_ACTIONS_MIRROR_DIR`): bare repositories at `<dir>/<owner>/<repo>.git`,
 * for installs that cannot reach the forge. A ref resolves as a tag, then a branch, then a commit
 * sha (GitHub's order: a tag wins over a branch of the same name); the archive of a commit is
 * `git archive` with one top-level directory (`owner-repo-sha7/`, as the forge's tarballs, which
 * the runner requires). git runs with argument arrays and an environment no user or system
 * configuration reaches.
 */
import { execFile } from 'node:child_process';
import { stat } from 'node:fs/promises';
import { join } from 'node:path';
import { splitRepositoryName, type RepositorySource } from '../../core/ports/index.js';

/** Largest archive the mirror builds (they are buffered before they go to the blob store). */
export const MAX_ARCHIVE_BYTES = 256 * 1024 * 1024;

const SHA = /^[0-9a-f]{40}$/;
const SHORT_SHA = /^[0-9a-f]{7,40}$/;

function cleanEnv(): NodeJS.ProcessEnv {
  return {
    PATH: process.env['PATH'] ?? '/usr/local/bin:/usr/bin:/bin',
    HOME: '/nonexistent',
    LC_ALL: 'C',
    GIT_CONFIG_NOSYSTEM: '1',
    GIT_CONFIG_GLOBAL: '/dev/null',
    GIT_ATTR_NOSYSTEM: '1',
    GIT_NO_REPLACE_OBJECTS: '1',
    GIT_TERMINAL_PROMPT: '0',
  };
}

interface GitResult {
  readonly ok: boolean;
  readonly stdout: Buffer;
  readonly stderr: string;
}

function git(gitDir: string, args: readonly string[]): Promise<GitResult> {
  return new Promise((resolve, reject) => {
    execFile('git', [...args], { env: { ...cleanEnv(), GIT_DIR: gitDir }, encoding: 'buffer', maxBuffer: MAX_ARCHIVE_BYTES }, (error, stdout, stderr) => {
      if (error !== null && typeof error.code !== 'number') return reject(error);
      resolve({ ok: error === null, stdout, stderr: stderr.toString('utf8') });
    });
  });
}

/** A ref a workflow or the runner may send that is safe to hand to git (no options, no revision syntax). */
function plainRef(ref: string): boolean {
  return /^[A-Za-z0-9_./-]+$/.test(ref) && !ref.startsWith('-') && !ref.includes('..') && !ref.startsWith('/') && !ref.endsWith('/');
}

/** The candidates a ref is tried as, in order, each with the name GitHub gives it when it matches. */
function candidates(ref: string): readonly { readonly revision: string; readonly name: (sha: string) => string }[] {
  return [
    { revision: `refs/tags/${ref}`, name: () => `refs/tags/${ref}` },
    { revision: `refs/heads/${ref}`, name: () => `refs/heads/${ref}` },
    ...(SHORT_SHA.test(ref) ? [{ revision: ref, name: (sha: string) => sha }] : []),
  ];
}

export function createMirrorSource(dir: string): RepositorySource {
  const gitDir = (nameWithOwner: string): string | undefined => {
    const name = splitRepositoryName(nameWithOwner);
    return name === undefined ? undefined : join(dir, name.owner, `${name.repo}.git`);
  };
  const has = async (nameWithOwner: string): Promise<boolean> => {
    const path = gitDir(nameWithOwner);
    if (path === undefined) return false;
    return (await stat(path).catch(() => undefined))?.isDirectory() === true;
  };
  const revParse = async (path: string, candidate: string): Promise<string | undefined> => {
    const result = await git(path, ['rev-parse', '--verify', '--quiet', '--end-of-options', `${candidate}^{commit}`]);
    const sha = result.stdout.toString('utf8').trim();
    return result.ok && SHA.test(sha) ? sha : undefined;
  };
  /** The first candidate `ref` names, with its commit. */
  const lookUp = async (nameWithOwner: string, ref: string): Promise<{ readonly sha: string; readonly name: string } | undefined> => {
    const path = gitDir(nameWithOwner);
    if (path === undefined || !plainRef(ref) || !(await has(nameWithOwner))) return undefined;
    for (const candidate of candidates(ref)) {
      const sha = await revParse(path, candidate.revision);
      if (sha !== undefined) return { sha, name: candidate.name(sha) };
    }
    return undefined;
  };
  return {
    kind: 'mirror',
    label: 'the mirror',
    location: `the mirror at ${dir} (SVC_ACTIONS_MIRROR_DIR)`,
    async resolve(nameWithOwner, ref) {
      if (!(await has(nameWithOwner))) return { missing: `the mirror has no ${nameWithOwner}.git` };
      const found = await lookUp(nameWithOwner, ref);
      return found === undefined ? { missing: `the mirror's ${nameWithOwner} has no tag, branch or commit '${ref}'` } : { sha: found.sha };
    },
    async refName(nameWithOwner, ref, sha) {
      const found = await lookUp(nameWithOwner, ref);
      return found !== undefined && found.sha === sha ? found.name : sha;
    },
    async readFile(nameWithOwner, sha, file) {
      const path = gitDir(nameWithOwner);
      if (path === undefined || !SHA.test(sha) || file.split('/').some((part) => part === '..' || part === '.' || part === '')) return undefined;
      const result = await git(path, ['cat-file', 'blob', `${sha}:${file}`]);
      return result.ok ? result.stdout.toString('utf8') : undefined;
    },
    async archive(nameWithOwner, sha, format) {
      const path = gitDir(nameWithOwner);
      const name = splitRepositoryName(nameWithOwner);
      if (path === undefined || name === undefined || !SHA.test(sha)) throw new TypeError(`cannot archive ${nameWithOwner}@${sha}`);
      const prefix = `${name.owner}-${name.repo}-${sha.slice(0, 7)}/`;
      const result = await git(path, ['archive', `--format=${format}`, `--prefix=${prefix}`, '--end-of-options', sha]);
      if (!result.ok) throw new Error(`git archive of ${nameWithOwner}@${sha} failed: ${result.stderr.trim()}`);
      return result.stdout;
    },
  };
}
