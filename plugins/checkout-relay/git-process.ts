import { spawn, type ChildProcessByStdio } from 'node:child_process';
import type { Readable, Writable } from 'node:stream';
import { UnavailableError } from '../../core/kernel/index.js';

/**
 * git for the relay: an argument array (never a shell) and an environment no user, system or
 * XDG configuration reaches (the host's settings, hooks such as `uploadpack.packObjectsHook`,
 * replace refs cannot change what a job receives). `extra` adds `GIT_DIR`, `GIT_PROTOCOL`.
 */
export interface GitChild {
  readonly process: ChildProcessByStdio<Writable, Readable, Readable>;
  /** git's stderr so far (capped). */
  stderr(): string;
  /** The exit code (or -1 for a signal), once git and its pipes closed. */
  readonly exited: Promise<number>;
}

const STDERR_LIMIT = 16 * 1024;

export function gitEnvironment(home: string, extra: Readonly<Record<string, string>> = {}): Record<string, string> {
  return {
    PATH: process.env['PATH'] ?? '/usr/local/bin:/usr/bin:/bin',
    HOME: home,
    LC_ALL: 'C',
    GIT_CONFIG_NOSYSTEM: '1',
    GIT_CONFIG_GLOBAL: '/dev/null',
    GIT_ATTR_NOSYSTEM: '1',
    GIT_NO_REPLACE_OBJECTS: '1',
    GIT_TERMINAL_PROMPT: '0',
    ...extra,
  };
}

/**
 * Starts git and resolves once it runs, so a missing binary is a clean 503 before any byte of the
 * answer is sent (the caller then streams stdin and stdout).
 */
export async function startGit(args: readonly string[], env: Readonly<Record<string, string>>): Promise<GitChild> {
  const child = spawn('git', args, { env, stdio: ['pipe', 'pipe', 'pipe'] });
  let stderr = '';
  child.stderr.setEncoding('utf8');
  child.stderr.on('data', (text: string) => {
    if (stderr.length < STDERR_LIMIT) stderr += text;
  });
  // git may exit before reading all of its input; its exit code tells the story, not EPIPE.
  child.stdin.on('error', () => undefined);
  const exited = new Promise<number>((resolve) => child.once('close', (code) => resolve(code ?? -1)));
  await new Promise<void>((resolve, reject) => {
    child.once('spawn', resolve);
    child.once('error', (error: NodeJS.ErrnoException) =>
      reject(error.code === 'ENOENT' ? new UnavailableError('git is not installed on the server (looked for "git" on PATH); the checkout relay needs it', { cause: error }) : error),
    );
  });
  return { process: child, stderr: () => stderr.trim(), exited };
}
