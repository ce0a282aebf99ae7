import { spawn } from 'node:child_process';
import type { Guest, GuestExit, GuestLaunch } from '../isolation-backend.js';
import { forwardLines } from './output-lines.js';

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
 * One guest of the process backend: the runner as a plain child process, leader of its own
 * process group so that the group (the runner, its worker, the job's steps) can be killed as one
 * and a Ctrl-C at the server's terminal does not reach it (the pool stops guests itself). No
 * isolation at all: same user, same file system, same network.
 */
export async function launchProcessGuest(spec: GuestLaunch): Promise<Guest> {
  const child = spawn(spec.command, [...spec.args], {
    cwd: spec.runnerRoot,
    env: { ...spec.env },
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  await new Promise<void>((resolve, reject) => {
    child.once('spawn', resolve);
    child.once('error', reject);
  });
  const pid = child.pid;
  if (pid === undefined) throw new Error(`guest ${spec.guestId}: ${spec.command} started without a pid`);
  forwardLines(child.stdout, (line) => spec.onOutput('stdout', line));
  forwardLines(child.stderr, (line) => spec.onOutput('stderr', line));

  let killTimer: NodeJS.Timeout | undefined;
  const exited = new Promise<GuestExit>((resolve) => {
    child.once('exit', (code, signal) => {
      clearTimeout(killTimer);
      // What the runner left behind in its group (a step's background process) goes with it.
      signalGroup(pid, 'SIGKILL');
      resolve({ code, signal });
    });
  });
  let stopping: Promise<GuestExit> | undefined;
  return {
    guestId: spec.guestId,
    pid,
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
