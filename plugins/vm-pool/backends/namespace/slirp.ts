import { spawn, type ChildProcess } from 'node:child_process';
import type { Readable } from 'node:stream';
import { UnavailableError } from '../../../../core/kernel/index.js';

export interface Slirp {
  stop(): Promise<void>;
}

/**
 * Starts slirp4netns on the host for the network namespace of `pid` (user-mode networking: the
 * guest gets tap0 with 10.0.2.100, gateway 10.0.2.2, DNS 10.0.2.3; host loopback unreachable)
 * and resolves once the tap device is configured.
 */
export async function startSlirp(binary: string, pid: number, onOutput: (line: string) => void): Promise<Slirp> {
  const child = spawn(binary, ['--configure', '--mtu=65520', '--disable-host-loopback', '--ready-fd=3', String(pid), 'tap0'], {
    stdio: ['ignore', 'pipe', 'pipe', 'pipe'],
  });
  let output = '';
  const collect = (chunk: Buffer) => {
    output += chunk.toString();
    for (const line of chunk.toString().split('\n')) if (line !== '') onOutput(line);
  };
  child.stdout?.on('data', collect);
  child.stderr?.on('data', collect);
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const ready = child.stdio[3] as Readable;
  const isReady = await new Promise<boolean>((resolve) => {
    ready.once('data', () => resolve(true));
    child.once('exit', () => resolve(false));
    child.once('error', () => resolve(false));
  });
  ready.destroy();
  if (!isReady) throw new UnavailableError(`slirp4netns did not start for the guest: ${output.trim() || 'no output'}`);
  return { stop: () => stopChild(child, exited) };
}

async function stopChild(child: ChildProcess, exited: Promise<void>): Promise<void> {
  if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
  await exited;
}
