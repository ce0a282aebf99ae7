/**
 * The worker process's entry (Worker.RunAsync, RUNNER-PROTOCOL.md §6.2, §6.3): the job message
 * must arrive on stdin (NewJobRequest) within 30 s; after it at most one more message counts:
 * CancelRequest cancels the job, RunnerShutdown / OperatingSystemShutdown stop it as the runner
 * goes away, as do SIGINT and SIGTERM sent to the worker itself. The answer is the exit code:
 * 100 + the job's TaskResult, or 1 when no job could be run at all (a crash to the listener).
 */
import { hostname } from 'node:os';
import type { Readable } from 'node:stream';
import type { HandlerRegistry } from '../handlers/index.js';
import { FrameReader, WorkerMessageType, exitCodeOf, type WorkerMessage } from '../ipc/index.js';
import type { DiagnosticLog, FetchLike, ReporterTimings } from '../reporting/index.js';
import { JobCancellation, type CancelReason } from './cancellation.js';
import { runJob } from './job-runner.js';
import { warmUp } from './warm-up.js';
import { parseJobMessage } from './job-message/index.js';
import type { WorkerTimings } from './worker-job.js';

/** The listener must hand the job over within this time. */
export const WORKER_START_TIMEOUT_MS = 30_000;

/** The exit code of a worker that could not run the job (not 100–105: the listener reports `failed`). */
export const WORKER_CRASH_EXIT_CODE = 1;

export interface RunWorkerOptions {
  /** The channel from the listener (default: this process's stdin). */
  readonly stdin?: Readable;
  /** The runner's root directory: jobs run under `<runnerRoot>/_work`. */
  readonly runnerRoot: string;
  /** The registered runner's name (records' `workerName`, `runner.name`); default the host name. */
  readonly runnerName?: string;
  /** Shown in "Set up job" (`Current runner version: '…'`). */
  readonly runnerVersion?: string;
  /** Handlers and the action resolver (default: the built-in `run` handler, no resolver). */
  readonly registry?: HandlerRegistry;
  /** Install SIGINT/SIGTERM handlers that stop the job as a runner shutdown (default true). */
  readonly handleSignals?: boolean;
  readonly startTimeoutMs?: number;
  /**
   * Started ahead of its job (the listener's spare worker): no start timeout (the listener closes
   * the channel or kills the worker when it goes away), and the job's first-use costs are paid
   * while waiting (warm-up.ts).
   */
  readonly prestarted?: boolean;
  readonly timings?: Partial<WorkerTimings>;
  readonly reporterTimings?: Partial<ReporterTimings>;
  readonly fetch?: FetchLike;
  /** The worker's own diagnostics (default: stderr, prefixed). */
  readonly diagnostic?: DiagnosticLog;
}

const CANCEL_REASONS: Readonly<Partial<Record<number, CancelReason>>> = {
  [WorkerMessageType.CancelRequest]: 'cancel',
  [WorkerMessageType.RunnerShutdown]: 'runner-shutdown',
  [WorkerMessageType.OperatingSystemShutdown]: 'os-shutdown',
};

function firstMessage(reader: FrameReader, timeoutMs: number | undefined): Promise<WorkerMessage | undefined> {
  return new Promise((resolve, reject) => {
    const timer = timeoutMs === undefined ? undefined : setTimeout(() => reject(new Error(`no job message arrived within ${timeoutMs / 1000} s`)), timeoutMs);
    reader.next().then(
      (message) => {
        clearTimeout(timer);
        resolve(message);
      },
      (error: unknown) => {
        clearTimeout(timer);
        reject(error instanceof Error ? error : new Error(String(error)));
      },
    );
  });
}

export async function runWorker(options: RunWorkerOptions): Promise<number> {
  const diagnostic = options.diagnostic ?? ((message: string) => process.stderr.write(`[svc-runner worker] ${message}\n`));
  const reader = new FrameReader(options.stdin ?? process.stdin);
  let message;
  const prestarted = options.prestarted === true;
  if (prestarted) void warmUp(diagnostic);
  try {
    const first = await firstMessage(reader, prestarted ? undefined : (options.startTimeoutMs ?? WORKER_START_TIMEOUT_MS));
    if (first === undefined) throw new Error('the channel closed before the job message arrived');
    if (first.type !== WorkerMessageType.NewJobRequest) throw new Error(`expected a NewJobRequest first, got message type ${first.type}`);
    message = parseJobMessage(first.body);
  } catch (error) {
    diagnostic(error instanceof Error ? error.message : String(error));
    return WORKER_CRASH_EXIT_CODE;
  }

  const cancellation = new JobCancellation();
  reader.next().then(
    (next) => {
      const reason = next === undefined ? undefined : CANCEL_REASONS[next.type];
      if (reason !== undefined) cancellation.cancel(reason);
    },
    (error: unknown) => diagnostic(`the listener channel failed: ${error instanceof Error ? error.message : String(error)}`),
  );
  const onSignal = () => cancellation.cancel('runner-shutdown');
  const signals = options.handleSignals !== false;
  if (signals) {
    process.on('SIGINT', onSignal);
    process.on('SIGTERM', onSignal);
  }
  try {
    const result = await runJob(message, {
      runnerRoot: options.runnerRoot,
      runnerName: options.runnerName ?? hostname(),
      runnerVersion: options.runnerVersion ?? 'unknown',
      cancellation,
      diagnostic,
      ...(options.registry === undefined ? {} : { registry: options.registry }),
      ...(options.timings === undefined ? {} : { timings: options.timings }),
      ...(options.reporterTimings === undefined ? {} : { reporterTimings: options.reporterTimings }),
      ...(options.fetch === undefined ? {} : { fetch: options.fetch }),
    });
    return exitCodeOf(result);
  } catch (error) {
    diagnostic(`the job could not be run: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
    return WORKER_CRASH_EXIT_CODE;
  } finally {
    if (signals) {
      process.off('SIGINT', onSignal);
      process.off('SIGTERM', onSignal);
    }
  }
}
