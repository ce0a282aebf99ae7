import { spawn, type ChildProcess } from 'node:child_process';
import { readlinkSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { UnavailableError } from '../../../../core/kernel/index.js';
import type { Guest, GuestExit, GuestLaunch } from '../isolation-backend.js';
import { startSlirp, type Slirp } from '../namespace/slirp.js';
import { EXIT_MARKER, READY_MARKER, STOP_LINE } from './guest-script.js';

/** How the guest's qemu is started: directly, or in its own namespaces for outbound network. */
export interface VmProcess {
  readonly program: string;
  readonly args: readonly string[];
  /** Set when qemu runs in a fresh network namespace that slirp4netns connects (network on). */
  readonly slirp4netns: string | undefined;
}

export interface VmContext {
  readonly nonce: string;
  /** Host-side state of the guest (removed once it is gone). */
  readonly stateDir: string;
  /** The launch file, removed on exit in case the guest never read it. */
  readonly launchFile: string;
  readonly bootTimeoutMs: number;
}

const NAMESPACE_WAIT_MS = 5000;

/**
 * Starts qemu and follows the guest's console: output lines go to `onOutput`, the init's ready and
 * exit lines (with the guest's nonce) are taken out. Resolves once the runner is started; throws,
 * with the console's last lines, when the guest stops or hangs before that.
 */
export async function runVm(spec: GuestLaunch, vm: VmProcess, context: VmContext): Promise<Guest> {
  const child = spawn(vm.program, [...vm.args], { cwd: '/', env: { PATH: process.env['PATH'] ?? '/usr/bin:/bin' }, stdio: ['pipe', 'pipe', 'pipe'] });
  child.stdin.on('error', () => undefined);
  let tail = '';
  const remember = (line: string) => {
    tail = `${tail}${line}\n`.slice(-3000);
  };
  let exitCode: number | null = null;
  let killed = false;
  let markReady: () => void = () => undefined;
  const ready = new Promise<void>((resolve) => (markReady = resolve));
  const readyLine = `${READY_MARKER}:${context.nonce}`;
  const exitPrefix = `${EXIT_MARKER}:${context.nonce}:`;
  createInterface({ input: child.stdout, crlfDelay: Infinity }).on('line', (raw) => {
    const line = raw.replace(/\r+$/, '').replace(/^\r+/, '');
    if (line === readyLine) return markReady();
    if (line.startsWith(exitPrefix)) {
      exitCode = Number(line.slice(exitPrefix.length));
      return;
    }
    remember(line);
    spec.onOutput('stdout', line);
  });
  createInterface({ input: child.stderr, crlfDelay: Infinity }).on('line', (line) => {
    remember(line);
    spec.onOutput('stderr', `qemu: ${line}`);
  });
  const closed = new Promise<GuestExit>((resolve) => {
    child.once('close', (code, signal) => resolve(killed ? { code: null, signal: 'SIGKILL' } : exitCode !== null ? { code: exitCode, signal: null } : { code: null, signal: signal ?? (code === 0 ? null : `qemu exit ${code ?? ''}`) }));
    child.once('error', (error) => {
      remember(error.message);
      resolve({ code: null, signal: null });
    });
  });
  let slirp: Slirp | undefined;
  const exited = closed.then(async (exit) => {
    await slirp?.stop();
    rmSync(context.launchFile, { force: true });
    rmSync(context.stateDir, { recursive: true, force: true });
    return exit;
  });
  const kill = () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    killed = true;
    child.kill('SIGKILL');
  };

  try {
    if (vm.slirp4netns !== undefined) {
      await ownNetworkNamespace(child, closed);
      slirp = await startSlirp(vm.slirp4netns, child.pid ?? 0, join(context.stateDir, 'slirp.log'));
    }
    const outcome = await Promise.race([
      ready.then(() => 'ready' as const),
      closed.then(() => 'exited' as const),
      new Promise<'timeout'>((resolve) => setTimeout(() => resolve('timeout'), context.bootTimeoutMs).unref()),
    ]);
    if (outcome !== 'ready') {
      const how = outcome === 'timeout' ? `did not start the runner within ${Math.round(context.bootTimeoutMs / 1000)} s` : 'stopped before the runner started';
      throw new UnavailableError(`the microvm guest ${how}: ${tail.trim().split('\n').slice(-15).join(' | ') || 'no console output'}`);
    }
  } catch (error) {
    kill();
    await exited;
    throw error;
  }

  return {
    guestId: spec.guestId,
    pid: child.pid,
    exited,
    async stop(graceMs) {
      if (child.exitCode === null && child.signalCode === null) {
        // The init reads the console: it sends the runner SIGTERM and powers off when it exits.
        child.stdin.write(`${STOP_LINE}\n`);
        const timer = setTimeout(kill, graceMs);
        await closed;
        clearTimeout(timer);
      }
      return exited;
    },
  };
}

/** Waits until the child (unshare, then qemu) is in a network namespace other than ours. */
async function ownNetworkNamespace(child: ChildProcess, closed: Promise<GuestExit>): Promise<void> {
  const ours = readlinkSync('/proc/self/ns/net');
  const deadline = Date.now() + NAMESPACE_WAIT_MS;
  let gone = false;
  void closed.then(() => (gone = true));
  for (;;) {
    try {
      if (readlinkSync(`/proc/${child.pid ?? 0}/ns/net`) !== ours) return;
    } catch {
      // not there yet, or gone
    }
    if (gone) throw new UnavailableError('the microvm guest exited while entering its network namespace (is unshare refused here?)');
    if (Date.now() > deadline) throw new UnavailableError('the microvm guest did not enter its own network namespace');
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}
