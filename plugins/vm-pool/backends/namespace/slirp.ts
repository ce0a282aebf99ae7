import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { closeSync, constants, openSync, readFileSync } from 'node:fs';
import type { Readable } from 'node:stream';
import { UnavailableError } from '../../../../core/kernel/index.js';
import { processStartTime } from '../process-liveness.js';

export interface Slirp {
  /** Its pid and start time, for a later server to stop it (an adopted guest's). */
  readonly process: { readonly pid: number; readonly startTime: string } | undefined;
  stop(): Promise<void>;
}

/**
 * Starts slirp4netns on the host for the network namespace of `pid` (user-mode networking: the
 * guest gets tap0 with 10.0.2.100, gateway 10.0.2.2, DNS 10.0.2.3; host loopback unreachable)
 * and resolves once the tap device is configured. It writes to the guest's `log` and runs in its
 * own session, so the guest keeps its network when the server is killed; with a `lifeline` it ends
 * with the guest (the lifeline's read end is its exit fd), without one when it is stopped.
 */
export async function startSlirp(binary: string, pid: number, log: string, lifeline?: Lifeline): Promise<Slirp> {
  const logFd = openSync(log, 'a', 0o600);
  let child: ChildProcess;
  try {
    const exitFd = lifeline === undefined ? [] : ['--exit-fd=4'];
    child = spawn(binary, ['--configure', '--mtu=65520', '--disable-host-loopback', '--ready-fd=3', ...exitFd, String(pid), 'tap0'], {
      detached: true,
      stdio: ['ignore', logFd, logFd, 'pipe', lifeline?.readFd ?? 'ignore'],
    });
  } finally {
    closeSync(logFd);
    lifeline?.close();
  }
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const ready = child.stdio[3] as Readable;
  const isReady = await new Promise<boolean>((resolve) => {
    ready.once('data', () => resolve(true));
    child.once('exit', () => resolve(false));
    child.once('error', () => resolve(false));
  });
  ready.destroy();
  if (!isReady) throw new UnavailableError(`slirp4netns did not start for the guest: ${lastLines(log) || 'no output'}`);
  const startTime = child.pid === undefined ? undefined : processStartTime(child.pid);
  return {
    process: child.pid === undefined || startTime === undefined ? undefined : { pid: child.pid, startTime },
    stop: () => stopChild(child, exited),
  };
}

/**
 * A FIFO whose write end only the guest's init holds (passed as its fd 5, closed for everything
 * it starts) and whose read end is slirp4netns's exit fd: when the guest's pid 1 is gone, whoever
 * launched it and whether or not a server still runs, slirp4netns sees the hang-up and exits.
 * The server closes its copies once both are handed over.
 */
export interface Lifeline {
  readonly readFd: number;
  readonly writeFd: number;
  /** Closes the server's copies of both ends (idempotent). */
  close(): void;
}

/** Makes the lifeline FIFO at `path` (in the guest's 0700 state dir). */
export function openLifeline(path: string): Lifeline {
  const made = spawnSync('mkfifo', ['-m', '600', path], { encoding: 'utf8' });
  if (made.status !== 0) throw new UnavailableError(`could not make the guest's network lifeline (mkfifo): ${made.stderr?.trim() || made.error?.message || `exit ${made.status}`}`);
  // Non-blocking: a FIFO's read end opens at once, and then its write end (a reader exists).
  const readFd = openSync(path, constants.O_RDONLY | constants.O_NONBLOCK);
  let writeFd: number;
  try {
    writeFd = openSync(path, constants.O_WRONLY | constants.O_NONBLOCK);
  } catch (error) {
    closeSync(readFd);
    throw error;
  }
  let open = true;
  return {
    readFd,
    writeFd,
    close() {
      if (!open) return;
      open = false;
      closeSync(readFd);
      closeSync(writeFd);
    },
  };
}

function lastLines(log: string): string {
  try {
    return readFileSync(log, 'utf8').slice(-2000).trim();
  } catch {
    return '';
  }
}

async function stopChild(child: ChildProcess, exited: Promise<void>): Promise<void> {
  if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
  await exited;
}
