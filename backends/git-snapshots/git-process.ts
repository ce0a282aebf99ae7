import { spawn, type ChildProcessByStdio } from 'node:child_process';
import { PassThrough, type Readable, type Writable } from 'node:stream';
import { SvcError, UnavailableError } from '../../core/kernel/index.js';

/** How the store runs git: which binary, with which environment. */
export interface Git {
  readonly binary: string;
  readonly env: Readonly<Record<string, string>>;
}

/**
 * A git that no user, system or XDG configuration can reach, so the host's settings (hooks,
 * attributes, signing, replace refs, default branch) cannot change what a snapshot becomes.
 */
export function cleanGit(home: string, binary = 'git'): Git {
  return {
    binary,
    env: {
      PATH: process.env['PATH'] ?? '/usr/local/bin:/usr/bin:/bin',
      HOME: home,
      LC_ALL: 'C',
      GIT_CONFIG_NOSYSTEM: '1',
      GIT_CONFIG_GLOBAL: '/dev/null',
      GIT_ATTR_NOSYSTEM: '1',
      GIT_NO_REPLACE_OBJECTS: '1',
      GIT_TERMINAL_PROMPT: '0',
    },
  };
}

/** A git command that exited non-zero; carries git's stderr. A failed dependency: 500. */
export class GitCommandError extends SvcError {
  readonly args: readonly string[];
  readonly exitCode: number | null;
  readonly stderr: string;

  constructor(args: readonly string[], exitCode: number | null, signal: NodeJS.Signals | null, stderr: string) {
    const how = signal === null ? `exit ${exitCode ?? '?'}` : `signal ${signal}`;
    const said = stderr.trim();
    super(`git ${args.join(' ')} failed (${how})${said === '' ? '' : `: ${said}`}`, 500, 'git_failed', {
      details: { args, exitCode, signal, stderr: said },
    });
    this.args = args;
    this.exitCode = exitCode;
    this.stderr = said;
  }
}

export interface GitChild {
  readonly process: ChildProcessByStdio<Writable, Readable, Readable>;
  /** Settles when the process and its pipes closed: rejects with a GitCommandError unless exit 0. */
  readonly exited: Promise<void>;
}

const STDERR_LIMIT = 64 * 1024;

/**
 * Starts git with an argument array (never a shell); stdin and stdout are the caller's to stream.
 * `env` adds variables (a quarantine's `GIT_OBJECT_DIRECTORY`).
 */
export function spawnGit(git: Git, args: readonly string[], gitDir?: string, extraEnv: Readonly<Record<string, string>> = {}): GitChild {
  const env = { ...git.env, ...(gitDir === undefined ? {} : { GIT_DIR: gitDir }), ...extraEnv };
  const child = spawn(git.binary, args, { env, stdio: ['pipe', 'pipe', 'pipe'] });
  let stderr = '';
  child.stderr.setEncoding('utf8');
  child.stderr.on('data', (text: string) => {
    if (stderr.length < STDERR_LIMIT) stderr += text;
  });
  // A process that dies early makes writes fail with EPIPE; the exit status tells the real story.
  child.stdin.on('error', () => undefined);
  const exited = new Promise<void>((resolve, reject) => {
    child.once('error', (error: NodeJS.ErrnoException) => {
      reject(
        error.code === 'ENOENT'
          ? new UnavailableError(`git is not installed (looked for "${git.binary}" on PATH); snapshots need it`, { cause: error })
          : error,
      );
    });
    child.once('close', (code, signal) => {
      if (code === 0) resolve();
      else reject(new GitCommandError(args, code, signal, stderr));
    });
  });
  // Callers that only stream may never await this; the rejection is theirs to read when they do.
  exited.catch(() => undefined);
  return { process: child, exited };
}

export interface GitResult {
  readonly code: number;
  readonly stdout: Buffer;
}

export interface RunGitOptions {
  readonly gitDir?: string;
  /** More environment variables. */
  readonly env?: Readonly<Record<string, string>>;
  readonly input?: string | Buffer;
  /** Exit codes that are answers rather than failures (e.g. 1 for `cat-file -e`). */
  readonly allowCodes?: readonly number[];
}

/** Runs git to completion, collecting stdout; any exit code outside 0 and `allowCodes` throws. */
export async function runGit(git: Git, args: readonly string[], options: RunGitOptions = {}): Promise<GitResult> {
  const child = spawnGit(git, args, options.gitDir, options.env);
  const chunks: Buffer[] = [];
  child.process.stdout.on('data', (chunk: Buffer) => chunks.push(chunk));
  child.process.stdin.end(options.input);
  try {
    await child.exited;
    return { code: 0, stdout: Buffer.concat(chunks) };
  } catch (error) {
    if (error instanceof GitCommandError && error.exitCode !== null && options.allowCodes?.includes(error.exitCode)) {
      return { code: error.exitCode, stdout: Buffer.concat(chunks) };
    }
    throw error;
  }
}

/** stdout of a successful git command as trimmed text. */
export async function gitText(git: Git, args: readonly string[], options: RunGitOptions = {}): Promise<string> {
  return (await runGit(git, args, options)).stdout.toString('utf8').trim();
}

/**
 * git's stdout as a stream, `stdin` written to it first. The stream ends only once git exited 0,
 * and errors with git's stderr otherwise, so a reader never takes a cut output for a whole one;
 * destroying the stream stops git.
 */
export function gitOutputStream(git: Git, args: readonly string[], gitDir: string, stdin = ''): Readable {
  const child = spawnGit(git, args, gitDir);
  const out = new PassThrough();
  child.process.stdin.end(stdin);
  child.process.stdout.pipe(out, { end: false });
  child.exited.then(
    () => out.end(),
    (error: unknown) => out.destroy(error as Error),
  );
  out.on('close', () => {
    if (child.process.exitCode === null && child.process.signalCode === null) child.process.kill('SIGTERM');
  });
  return out;
}
