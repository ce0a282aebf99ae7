import { spawn } from 'node:child_process';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { RUNNER_WORKERS_DIR } from '../../core/protocol/index.js';
import { writeFrame, type WorkerMessage } from '../ipc/index.js';

/** How to start a worker: `file` and `args`; the listener appends `worker --runner-root <root>`. */
export interface WorkerCommand {
  readonly file: string;
  readonly args: readonly string[];
  /**
   * The worker understands `--prestarted` (started before its job, it waits for the job message
   * without the 30 s limit): the built-in worker does; a command from SVC_RUNNER_WORKER_COMMAND
   * is started when the job arrives, as before.
   */
  readonly prestart?: boolean;
}

/** The environment variable that replaces the worker command (a JSON array: file, then args); for tests and debugging. */
export const WORKER_COMMAND_VARIABLE = 'SVC_RUNNER_WORKER_COMMAND';

/**
 * The worker is this same program with the hidden `worker` subcommand: node (with its flags, e.g.
 * `--import tsx` when run from source) and the entry script, or the command in
 * SVC_RUNNER_WORKER_COMMAND.
 */
export function workerCommand(env: NodeJS.ProcessEnv = process.env): WorkerCommand {
  const override = env[WORKER_COMMAND_VARIABLE];
  if (override !== undefined && override.trim() !== '') {
    let parsed: unknown;
    try {
      parsed = JSON.parse(override);
    } catch {
      parsed = undefined;
    }
    if (!Array.isArray(parsed) || parsed.length === 0 || !parsed.every((part): part is string => typeof part === 'string')) {
      throw new Error(`${WORKER_COMMAND_VARIABLE} must be a JSON array of strings (the program, then its arguments), got ${override}`);
    }
    const [file, ...args] = parsed as [string, ...string[]];
    return { file, args, prestart: false };
  }
  const entry = process.argv[1];
  if (entry === undefined) throw new Error('cannot tell which script to start the worker from (process.argv[1] is empty)');
  return { file: process.execPath, args: [...process.execArgv, entry], prestart: true };
}

export interface WorkerExit {
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
}

export interface WorkerProcess {
  readonly pid: number | undefined;
  readonly exited: Promise<WorkerExit>;
  /** Not exited yet (`exited` settles a little later: it waits for the output to drain). */
  readonly running: boolean;
  /** Sends one framed message; rejects after `timeoutMs` or when the worker's stdin is gone. */
  send(message: WorkerMessage, timeoutMs: number): Promise<void>;
  /** Kills the worker and everything it started (its process group). */
  kill(): void;
  /** The worker's stdout and stderr lines (`[WORKER` lines dropped), for crash reports. */
  output(): readonly string[];
}

const OUTPUT_LINES = 500;

/** Lists a running worker in the runner root (RUNNER_WORKERS_DIR) until it exits. */
function markWorker(runnerRoot: string, pid: number): { remove(): void } | undefined {
  const file = join(runnerRoot, RUNNER_WORKERS_DIR, String(pid));
  try {
    mkdirSync(join(runnerRoot, RUNNER_WORKERS_DIR), { recursive: true, mode: 0o700 });
    writeFileSync(file, '', { mode: 0o600 });
  } catch {
    return undefined; // a read-only root: nobody can clean up after us, which changes nothing else
  }
  return { remove: () => rmSync(file, { force: true }) };
}

/**
 * Starts a worker in its own process group (a Ctrl-C at the terminal reaches the listener, which
 * winds the job down; killing the group takes the job's processes with it). `prestarted`: ahead
 * of its job (spare-worker.ts).
 */
export function startWorker(
  command: WorkerCommand,
  runnerRoot: string,
  options: { readonly env: NodeJS.ProcessEnv; readonly mirror: (line: string) => void; readonly prestarted?: boolean },
): WorkerProcess {
  const child = spawn(command.file, [...command.args, 'worker', '--runner-root', runnerRoot, ...(options.prestarted === true ? ['--prestarted'] : [])], {
    // The listener's working directory, not the root: node resolves `--import` flags against it.
    env: options.env,
    stdio: ['pipe', 'pipe', 'pipe'],
    detached: true,
  });
  const marker = child.pid === undefined ? undefined : markWorker(runnerRoot, child.pid);
  const lines: string[] = [];
  const collect = (stream: NodeJS.ReadableStream | null, dropWorkerLines: boolean) => {
    if (stream === null) return;
    createInterface({ input: stream }).on('line', (line) => {
      if (line === '') return;
      options.mirror(line);
      if (dropWorkerLines && line.startsWith('[WORKER')) return;
      lines.push(line);
      if (lines.length > OUTPUT_LINES) lines.shift();
    });
  };
  collect(child.stdout, true);
  collect(child.stderr, false);
  child.stdin.on('error', () => undefined); // a worker that exits early closes its end: reported by send()
  const exited = new Promise<WorkerExit>((resolve) => {
    child.once('error', (error) => {
      lines.push(`cannot start the worker (${command.file}): ${error.message}`);
      resolve({ code: null, signal: null });
    });
    // 'exit', not 'close': a job's background process may hold the worker's stdout open. The
    // output still in flight is given a moment to arrive for the crash report.
    child.once('exit', (code, signal) => {
      marker?.remove();
      const closed = new Promise<void>((done) => child.once('close', () => done()));
      void Promise.race([closed, new Promise((done) => setTimeout(done, 1000).unref())]).then(() => resolve({ code, signal }));
    });
  });
  return {
    pid: child.pid,
    exited,
    get running() {
      return child.exitCode === null && child.signalCode === null && child.pid !== undefined;
    },
    output: () => lines,
    send: async (message, timeoutMs) => {
      let timer: NodeJS.Timeout | undefined;
      const timeout = new Promise<never>((_resolve, reject) => {
        timer = setTimeout(() => reject(new Error(`the worker did not take the message within ${timeoutMs / 1000} s`)), timeoutMs);
      });
      const gone = exited.then(() => Promise.reject(new Error('the worker exited before taking the message')));
      gone.catch(() => undefined); // only its part in the race matters
      try {
        await Promise.race([writeFrame(child.stdin, message), timeout, gone]);
      } finally {
        clearTimeout(timer);
      }
    },
    kill: () => {
      if (child.pid === undefined || child.exitCode !== null || child.signalCode !== null) return;
      try {
        process.kill(-child.pid, 'SIGKILL');
      } catch {
        child.kill('SIGKILL');
      }
    },
  };
}
