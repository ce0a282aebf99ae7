import { spawn } from 'node:child_process';
import { stat } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { PassThrough, type Readable } from 'node:stream';
import { SvcError, UnavailableError } from '../../../../core/kernel/cli/index.js';

/**
 * git in the user's own repository. Unlike the server, the client keeps the user's
 * configuration on purpose: their global excludes file is part of what "ignored" means to them.
 * Optional locks are off, so a snapshot never takes the index lock from an editor or a hook;
 * messages are in English, because "not a git repository" is read.
 */
export class LocalGitError extends SvcError {
  readonly stderr: string;
  readonly exitCode: number | null;

  constructor(args: readonly string[], cwd: string, exitCode: number | null, stderr: string) {
    const said = stderr.trim();
    super(`git ${args.join(' ')} failed in ${cwd} (exit ${exitCode ?? 'by signal'})${said === '' ? '' : `: ${said}`}`, 500, 'git_failed', {
      details: { args, cwd, exitCode, stderr: said },
    });
    this.stderr = said;
    this.exitCode = exitCode;
  }
}

export interface LocalGitResult {
  readonly code: number;
  readonly stdout: Buffer;
  readonly stderr: string;
}

export interface LocalGitOptions {
  /** More environment variables (a temporary index or object directory). */
  readonly env?: Readonly<Record<string, string>>;
  /** What git reads on stdin (nothing when absent). */
  readonly input?: string;
}

/** The user's environment, with optional locks off and git's messages in English. */
function gitEnvironment(extra: Readonly<Record<string, string>> = {}): NodeJS.ProcessEnv {
  return { ...process.env, GIT_OPTIONAL_LOCKS: '0', LC_ALL: 'C', LANGUAGE: 'C', ...extra };
}

/** Runs git in `cwd` (argument array, no shell); exit codes outside 0 and `allowCodes` throw with git's stderr. */
export function localGit(cwd: string, args: readonly string[], allowCodes: readonly number[] = [], options: LocalGitOptions = {}): Promise<LocalGitResult> {
  return new Promise((resolve, reject) => {
    const child = spawn('git', args, { cwd, env: gitEnvironment(options.env), stdio: ['pipe', 'pipe', 'pipe'] });
    // git may exit before reading everything (a failure): its exit code tells, not EPIPE.
    child.stdin.on('error', () => undefined);
    child.stdin.end(options.input ?? '');
    const out: Buffer[] = [];
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => out.push(chunk));
    child.stderr.setEncoding('utf8').on('data', (text: string) => (stderr += text));
    child.once('error', reject);
    child.once('close', (code) => {
      if (code === 0 || (code !== null && allowCodes.includes(code))) resolve({ code, stdout: Buffer.concat(out), stderr });
      else reject(new LocalGitError(args, cwd, code, stderr));
    });
  });
}

export async function localGitText(cwd: string, args: readonly string[], options: LocalGitOptions = {}): Promise<string> {
  return (await localGit(cwd, args, [], options)).stdout.toString('utf8').trim();
}

export interface LocalGitStream {
  /** What git writes, as it writes it; errors with git's stderr when git fails. */
  readonly stdout: Readable;
  /** Stops git (nobody reads its output any more). */
  stop(): void;
}

/**
 * git whose output is streamed (a pack of a whole history is never held in memory): `input`
 * goes to stdin, stdout is passed on and ends only once git exited 0, so a reader never takes
 * a cut output for a whole one.
 */
export function streamLocalGit(cwd: string, args: readonly string[], options: LocalGitOptions = {}): LocalGitStream {
  const child = spawn('git', args, { cwd, env: gitEnvironment(options.env), stdio: ['pipe', 'pipe', 'pipe'] });
  const out = new PassThrough();
  let stderr = '';
  child.stderr.setEncoding('utf8').on('data', (text: string) => (stderr += text));
  child.stdin.on('error', () => undefined);
  child.stdin.end(options.input ?? '');
  child.stdout.pipe(out, { end: false });
  child.once('error', (error) => out.destroy(error));
  child.once('close', (code) => {
    if (code === 0) out.end();
    else out.destroy(new LocalGitError(args, cwd, code, stderr));
  });
  const stop = () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
  };
  out.once('close', stop);
  return { stdout: out, stop };
}

/** The commit HEAD names in the work tree at `dir`; undefined before the first commit. */
export async function headCommit(dir: string): Promise<string | undefined> {
  const result = await localGit(dir, ['rev-parse', '-q', '--verify', 'HEAD^{commit}'], [1]);
  return result.code === 0 ? result.stdout.toString('utf8').trim() || undefined : undefined;
}

/**
 * The top of the work tree holding `dir`, or undefined outside any git repository. Without git
 * installed, a directory that does sit in a repository is an error rather than "not git": packing
 * it as plain files would send what .gitignore keeps out (secrets in .env files, for one).
 */
export async function workTreeRoot(dir: string): Promise<string | undefined> {
  let result: LocalGitResult;
  try {
    result = await localGit(dir, ['rev-parse', '--show-toplevel'], [128]);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    if (await insideRepository(dir)) {
      throw new UnavailableError(`${dir} is in a git repository, but git is not installed: it is needed to leave ignored files out`, { cause: error });
    }
    return undefined;
  }
  if (result.code === 0) return result.stdout.toString('utf8').trim();
  if (/not a git repository/i.test(result.stderr)) return undefined;
  // Inside a .git directory, a repository of another owner (safe.directory), ...: git says why.
  throw new LocalGitError(['rev-parse', '--show-toplevel'], dir, result.code, result.stderr);
}

async function insideRepository(dir: string): Promise<boolean> {
  for (let current = dir; ; current = dirname(current)) {
    if (await stat(join(current, '.git')).then(() => true, () => false)) return true;
    if (dirname(current) === current) return false;
  }
}
