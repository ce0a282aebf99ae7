import { spawn, type ChildProcess } from 'node:child_process';
import { closeSync, openSync, readFileSync } from 'node:fs';
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
 * own session, so the guest keeps its network when the server is killed.
 */
export async function startSlirp(binary: string, pid: number, log: string): Promise<Slirp> {
  const logFd = openSync(log, 'a', 0o600);
  let child: ChildProcess;
  try {
    child = spawn(binary, ['--configure', '--mtu=65520', '--disable-host-loopback', '--ready-fd=3', String(pid), 'tap0'], {
      detached: true,
      stdio: ['ignore', logFd, logFd, 'pipe'],
    });
  } finally {
    closeSync(logFd);
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
