/**
 * Runs a step's process the way the official runner's ProcessInvoker does: in its own process
 * group, stdout and stderr read line by line, and on cancellation SIGINT, then SIGTERM after
 * 7.5 s, then SIGKILL after another 2.5 s, each sent to the whole group so that what the script
 * started stops too. The promise settles once the process has exited and its output is read: at
 * once when its pipes close, else (something it started in the background holds them, `./server
 * &`) after reading on for 5 s, the runner's bound. What comes later is read and dropped, so the
 * background process neither blocks on a full pipe nor writes into the next step's log; it lives
 * on until the job's orphan clean-up (terminateOrphanProcesses).
 */
import { spawn } from 'node:child_process';
import type { Socket } from 'node:net';
import { StringDecoder } from 'node:string_decoder';
import type { Readable } from 'node:stream';

export interface KillTimings {
  /** SIGINT → SIGTERM (the runner's 7.5 s). */
  readonly sigtermAfterMs: number;
  /** SIGTERM → SIGKILL (the runner's 2.5 s). */
  readonly sigkillAfterMs: number;
}

export const DEFAULT_KILL_TIMINGS: KillTimings = { sigtermAfterMs: 7_500, sigkillAfterMs: 2_500 };

/** How long output is still read after the process exited while its pipes stay open (ProcessInvoker's 5 s). */
export const OUTPUT_DRAIN_MS = 5_000;

export interface ProcessOptions {
  readonly command: string;
  readonly args: readonly string[];
  readonly cwd: string;
  readonly env: Readonly<Record<string, string>>;
  /** Aborting stops the process (see the file comment). */
  readonly signal: AbortSignal;
  readonly onStdout: (line: string) => void;
  readonly onStderr: (line: string) => void;
  readonly killTimings?: KillTimings;
  /** Default OUTPUT_DRAIN_MS. */
  readonly outputDrainMs?: number;
}

export interface ProcessResult {
  /** The exit code, or null when a signal ended it. */
  readonly exitCode: number | null;
  readonly signal: NodeJS.Signals | null;
  /** Set when the signal was aborted while the process ran. */
  readonly aborted: boolean;
}

/** The process could not start (missing program or working directory). */
export class ProcessStartError extends Error {
  override readonly name = 'ProcessStartError';
}

/** Process groups of the steps run so far (the runner's orphan tracking). */
const startedGroups = new Set<number>();

/**
 * Ends what the job's steps left running (background processes that stayed in a step's process
 * group): answers the group ids it had to kill. The worker calls it in "Complete job".
 */
export function terminateOrphanProcesses(): number[] {
  const killed: number[] = [];
  if (process.platform === 'win32') return killed;
  for (const group of startedGroups) {
    try {
      process.kill(-group, 0);
    } catch {
      continue;
    }
    try {
      process.kill(-group, 'SIGKILL');
      killed.push(group);
    } catch {
      // Gone meanwhile.
    }
  }
  startedGroups.clear();
  return killed;
}

export function runProcess(options: ProcessOptions): Promise<ProcessResult> {
  const timings = options.killTimings ?? DEFAULT_KILL_TIMINGS;
  const group = process.platform !== 'win32';
  return new Promise<ProcessResult>((resolve, reject) => {
    if (options.signal.aborted) {
      resolve({ exitCode: null, signal: null, aborted: true });
      return;
    }
    const child = spawn(options.command, [...options.args], {
      cwd: options.cwd,
      env: { ...options.env },
      detached: group,
      stdio: ['ignore', 'pipe', 'pipe'],
      windowsHide: true,
    });
    if (group && child.pid !== undefined) startedGroups.add(child.pid);
    let aborted = false;
    const timers: NodeJS.Timeout[] = [];
    const send = (sig: NodeJS.Signals) => {
      if (child.pid === undefined) return;
      try {
        if (group) process.kill(-child.pid, sig);
        else child.kill(sig);
      } catch {
        // Already gone.
      }
    };
    const onAbort = () => {
      aborted = true;
      send('SIGINT');
      timers.push(
        setTimeout(() => {
          send('SIGTERM');
          timers.push(setTimeout(() => send('SIGKILL'), timings.sigkillAfterMs));
        }, timings.sigtermAfterMs),
      );
    };
    options.signal.addEventListener('abort', onAbort, { once: true });
    let settled = false;
    const finish = () => {
      settled = true;
      options.signal.removeEventListener('abort', onAbort);
      for (const timer of timers) clearTimeout(timer);
    };
    const settle = (code: number | null, sig: NodeJS.Signals | null) => {
      if (settled) return;
      finish();
      // Pipes a background process still holds are read on (and dropped) without keeping the worker alive.
      for (const stream of [child.stdout, child.stderr]) (stream as Partial<Socket> | null)?.unref?.();
      resolve({ exitCode: code, signal: sig, aborted });
    };
    if (child.stdout) readLines(child.stdout, (line) => !settled && options.onStdout(line));
    if (child.stderr) readLines(child.stderr, (line) => !settled && options.onStderr(line));
    child.once('error', (error: NodeJS.ErrnoException) => {
      finish();
      reject(
        new ProcessStartError(
          `An error occurred trying to start process '${options.command}' with working directory '${options.cwd}'. ${error.code === 'ENOENT' ? 'No such file or directory' : error.message}`,
          { cause: error },
        ),
      );
    });
    child.once('exit', (code, sig) => {
      if (!settled) timers.push(setTimeout(() => settle(code, sig), options.outputDrainMs ?? OUTPUT_DRAIN_MS));
    });
    child.once('close', (code, sig) => settle(code, sig));
  });
}

/** Calls `onLine` for each line (without `\n` or `\r\n`), the last one even without a newline. */
export function readLines(stream: Readable, onLine: (line: string) => void): void {
  const decoder = new StringDecoder('utf8');
  let pending = '';
  const emit = (text: string) => {
    pending += text;
    let index = pending.indexOf('\n');
    while (index >= 0) {
      const line = pending.slice(0, index);
      onLine(line.endsWith('\r') ? line.slice(0, -1) : line);
      pending = pending.slice(index + 1);
      index = pending.indexOf('\n');
    }
  };
  stream.on('data', (chunk: Buffer) => emit(decoder.write(chunk)));
  stream.on('end', () => {
    emit(decoder.end());
    if (pending !== '') onLine(pending.endsWith('\r') ? pending.slice(0, -1) : pending);
    pending = '';
  });
}
