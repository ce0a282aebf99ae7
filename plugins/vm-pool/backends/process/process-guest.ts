import { spawn, type ChildProcess } from 'node:child_process';
import { readdirSync, readFileSync, realpathSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { RUNNER_WORKERS_DIR } from '../../../../core/protocol/index.js';
import { guestLogs } from '../guest-log.js';
import type { Guest, GuestExit, GuestLaunch } from '../isolation-backend.js';
import { processAlive, processStartTime, waitUntilGone } from '../process-liveness.js';

/** What a server needs to find a process guest again after a restart (kept in the guest's record). */
export interface ProcessGuestHandle {
  readonly pid: number;
  /** `/proc/<pid>/stat` start time: a recycled pid is not the guest. */
  readonly startTime: string;
}

/** How much of an adopted guest's logs is forwarded again (its last lines, for a failure message). */
const ADOPTED_TAIL_BYTES = 4 * 1024;

/**
 * Steps run with the usual umask (022), whatever svc serve's own is (077 for its data files):
 * a step's files are 0644 and its directories 0755, as on GitHub. A shell sets it, then execs the
 * runner (changing the server's umask around spawn would reach its other threads' files).
 */
const UMASK_EXEC = 'umask 022 && exec "$0" "$@"';

/**
 * Kills the workers the guest's listener left running (RUNNER_WORKERS_DIR): each is the leader
 * of a session and group of its own, so the guest's group kill misses it, and a worker whose
 * listener is gone would go on with its job and retry its reports for minutes. Only a process
 * that is a worker of this runner root (its command line says so) is signalled.
 */
function killLeftWorkers(runnerRoot: string): void {
  const dir = join(runnerRoot, RUNNER_WORKERS_DIR);
  // The listener names its root as its working directory resolves it.
  const roots = new Set([runnerRoot]);
  try {
    roots.add(realpathSync(runnerRoot));
  } catch {
    return;
  }
  let pids: string[];
  try {
    pids = readdirSync(dir);
  } catch {
    return;
  }
  for (const name of pids) {
    const pid = Number(name);
    if (!Number.isSafeInteger(pid) || pid <= 1) continue;
    let args: string[];
    try {
      args = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0');
    } catch {
      continue;
    }
    const at = args.indexOf('--runner-root');
    if (args.includes('worker') && at >= 0 && roots.has(args[at + 1] ?? '')) signalGroup(pid, 'SIGKILL');
  }
  rmSync(dir, { recursive: true, force: true });
}

/** Sends a signal to a whole process group; false when nothing of it is left. */
function signalGroup(pid: number, signal: NodeJS.Signals): boolean {
  try {
    process.kill(-pid, signal);
    return true;
  } catch {
    return false;
  }
}

/**
 * One guest of the process backend: the runner as a plain process, leader of its own session and
 * process group so that the group (the runner, its worker, the job's steps) can be killed as one
 * and a Ctrl-C at the server's terminal does not reach it (the pool stops guests itself). It
 * outlives the server: its stdout and stderr go to `guest.log` in its runner root, not to the
 * server's pipes, so a server killed mid-job leaves the job running; the restarted server adopts
 * it (`adoptProcessGuest`). No isolation at all: same user, same file system, same network.
 */
export async function launchProcessGuest(spec: GuestLaunch): Promise<Guest> {
  const logs = guestLogs(spec.runnerRoot);
  const fds = logs.open();
  let child: ChildProcess;
  try {
    child = spawn('/bin/sh', ['-c', UMASK_EXEC, spec.command, ...spec.args], {
      cwd: spec.runnerRoot,
      env: { ...spec.env },
      detached: true,
      stdio: ['ignore', fds.stdout, fds.stderr],
    });
    await new Promise<void>((resolve, reject) => {
      child.once('spawn', resolve);
      child.once('error', reject);
    });
  } finally {
    fds.close();
  }
  const following = logs.follow(spec.onOutput);
  const pid = child.pid;
  if (pid === undefined) throw new Error(`guest ${spec.guestId}: ${spec.command} started without a pid`);
  const startTime = processStartTime(pid) ?? '';

  let killTimer: NodeJS.Timeout | undefined;
  const exited = new Promise<GuestExit>((resolve) => {
    child.once('exit', (code, signal) => {
      clearTimeout(killTimer);
      // What the runner left behind in its group (a step's background process) goes with it,
      // and so do the workers of its listener (in sessions of their own).
      signalGroup(pid, 'SIGKILL');
      killLeftWorkers(spec.runnerRoot);
      following.stop();
      resolve({ code, signal });
    });
  });
  let stopping: Promise<GuestExit> | undefined;
  const handle: ProcessGuestHandle = { pid, startTime };
  return {
    guestId: spec.guestId,
    pid,
    handle,
    exited,
    stop(graceMs) {
      stopping ??= (() => {
        if (child.exitCode !== null || child.signalCode !== null) return exited;
        // The runner's own wind-down (a running job is cancelled and reported), then the group.
        child.kill('SIGTERM');
        killTimer = setTimeout(() => signalGroup(pid, 'SIGKILL'), graceMs);
        return exited;
      })();
      return stopping;
    },
  };
}

/**
 * A guest a previous server of this data directory launched, found again from its handle:
 * undefined when its process is gone (or the pid is another process now). The server is not its
 * parent, so its exit is seen by polling and its exit status is unknown.
 */
export function adoptProcessGuest(guestId: string, runnerRoot: string, handle: unknown, onOutput: GuestLaunch['onOutput']): Guest | undefined {
  if (!isHandle(handle) || !processAlive(handle.pid, handle.startTime)) return undefined;
  const { pid } = handle;
  const following = guestLogs(runnerRoot).follow(onOutput, ADOPTED_TAIL_BYTES);
  const exited = waitUntilGone(pid, handle.startTime).then(() => {
    signalGroup(pid, 'SIGKILL');
    killLeftWorkers(runnerRoot);
    following.stop();
    return { code: null, signal: null } satisfies GuestExit;
  });
  let stopping: Promise<GuestExit> | undefined;
  return {
    guestId,
    pid,
    handle,
    exited,
    stop(graceMs) {
      stopping ??= (() => {
        try {
          process.kill(pid, 'SIGTERM');
        } catch {
          return exited;
        }
        const timer = setTimeout(() => signalGroup(pid, 'SIGKILL'), graceMs);
        return exited.finally(() => clearTimeout(timer));
      })();
      return stopping;
    },
  };
}

function isHandle(value: unknown): value is ProcessGuestHandle {
  if (typeof value !== 'object' || value === null) return false;
  const { pid, startTime } = value as Record<string, unknown>;
  return typeof pid === 'number' && Number.isInteger(pid) && pid > 1 && typeof startTime === 'string' && startTime !== '';
}
