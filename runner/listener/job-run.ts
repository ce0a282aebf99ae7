import type { TaskResultName } from '../../core/protocol/index.js';
import { resultOfExitCode, WorkerMessageType } from '../ipc/index.js';
import { JOB_COMPLETED_PLAN_VERSION, type JobMessage } from './job-message.js';
import type { JobServices } from './job-reporting.js';
import { LockRenewal } from './lock-renewal.js';
import { resultName, stamp, type Terminal } from './terminal.js';
import type { ListenerTimings } from './timings.js';
import type { WorkerExit, WorkerProcess } from './worker-process.js';

export interface JobRunDeps {
  readonly term: Terminal;
  readonly timings: ListenerTimings;
  readonly services: JobServices;
  readonly startWorker: () => WorkerProcess;
  /** Busy while the job runs (the poll reports it), Online again after. */
  readonly onBusy: (busy: boolean) => void;
  /** Diagnostics (renewal errors and the like), not part of the runner's console wording. */
  readonly diagnostic: (text: string) => void;
}

type StopKind = 'cancel' | 'shutdown';

/**
 * One job, as JobDispatcher.RunAsync runs it (§2.7, §2.8, §6): "Running job", the lock renewed
 * before and during the job, the worker started once the first renewal succeeded and handed the
 * job message, a server cancel forwarded as CancelRequest (killed max(timeout, 60 s) − 15 s
 * later), a runner stop forwarded as RunnerShutdown (killed after the wind-down, 60 s), and the
 * result taken from the worker's exit code.
 */
export class JobRun {
  readonly done: Promise<TaskResultName>;
  #stopKind: StopKind | undefined;
  #markStop!: () => void;
  readonly #stopRequested = new Promise<void>((resolve) => (this.#markStop = resolve));
  #markLockDecided!: () => void;
  readonly #lockDecided = new Promise<void>((resolve) => (this.#markLockDecided = resolve));
  #over = false;
  #markKill!: () => void;
  readonly #killNow = new Promise<void>((resolve) => (this.#markKill = resolve));
  #killAt: number | undefined;
  #killTimer: NodeJS.Timeout | undefined;

  constructor(
    readonly job: JobMessage,
    private readonly deps: JobRunDeps,
    after: Promise<unknown> = Promise.resolve(),
  ) {
    this.done = after.catch(() => undefined).then(() => this.#run());
    const settle = () => {
      this.#over = true;
      this.#markLockDecided();
    };
    this.done.then(settle, settle);
  }

  /** Settles once the first lock renewal has succeeded or failed (or the job ended before it). */
  get lockDecided(): Promise<void> {
    return this.#lockDecided;
  }

  /** True once the job is over (its worker gone, its result reported). */
  get finished(): boolean {
    return this.#over;
  }

  get jobId(): string {
    return this.job.jobId;
  }

  /** A `JobCancellation` for this job: CancelRequest, then kill after max(timeout, 60 s) − 15 s. */
  cancel(timeoutMs: number): void {
    const { cancelMinimumMs, cancelKillMarginMs } = this.deps.timings;
    this.#requestStop('cancel', Math.max(timeoutMs, cancelMinimumMs) - cancelKillMarginMs);
  }

  /** The runner is stopping: RunnerShutdown, then kill after the wind-down. */
  shutdown(): void {
    this.#requestStop('shutdown', this.deps.timings.stopGraceMs);
  }

  /** A second interrupt: stop the worker now. */
  forceStop(): void {
    this.#stopKind ??= 'shutdown';
    this.#markStop();
    this.#markKill();
  }

  #requestStop(kind: StopKind, killAfterMs: number): void {
    // A runner stop during a server cancel keeps the earlier of the two deadlines, and says RunnerShutdown if not yet said.
    if (this.#stopKind === undefined || kind === 'shutdown') this.#stopKind = kind;
    const at = Date.now() + Math.max(0, killAfterMs);
    if (this.#killAt === undefined || at < this.#killAt) {
      this.#killAt = at;
      clearTimeout(this.#killTimer);
      this.#killTimer = setTimeout(() => this.#markKill(), at - Date.now());
      this.#killTimer.unref();
    }
    this.#markStop();
  }

  async #run(): Promise<TaskResultName> {
    const { term, timings, services } = this.deps;
    const name = this.job.jobDisplayName;
    this.deps.onBusy(true);
    try {
      term.line(`${stamp()}: Running job: ${name}`);
      const renewal = new LockRenewal(services.lock, timings, (error) => this.deps.diagnostic(`renewing the lock of job ${this.job.jobId}: ${(error as Error).message}`));
      const first = await Promise.race([
        renewal.firstRenewed.then(() => 'renewed' as const),
        renewal.stopped.then(() => 'lost' as const),
        this.#stopRequested.then(() => 'stop' as const),
      ]);
      this.#markLockDecided();
      if (first === 'lost') {
        term.error(`${stamp()}: Unable to renew the job request of job ${name} for the first time; the job is not started.`);
        return 'abandoned';
      }
      if (first === 'stop') {
        await renewal.stop();
        if (this.#listenerFinishes) await this.#report('canceled', undefined);
        term.line(`${stamp()}: Job ${name} completed with result: ${resultName('canceled')}`);
        return 'canceled';
      }

      const worker = this.deps.startWorker();
      try {
        await worker.send({ type: WorkerMessageType.NewJobRequest, body: this.job.text }, timings.channelTimeoutMs);
      } catch (error) {
        term.error(`${stamp()}: Cannot hand job ${name} to the worker: ${(error as Error).message}`);
        worker.kill();
        await worker.exited;
        await renewal.stop();
        return 'failed';
      }

      const ended = await Promise.race([
        worker.exited.then((exit) => ({ exit })),
        renewal.stopped.then(() => 'lost' as const),
        this.#stopRequested.then(() => 'stop' as const),
      ]);
      if (typeof ended === 'object') return await this.#finished(worker, ended.exit, renewal);
      return await this.#stopWorker(worker, renewal, ended === 'lost' ? 'abandoned' : 'canceled');
    } finally {
      clearTimeout(this.#killTimer);
      this.deps.onBusy(false);
    }
  }

  /** The worker ended by itself: its exit code is the result (any other code is a crash, `failed`). */
  async #finished(worker: WorkerProcess, exit: WorkerExit, renewal: LockRenewal): Promise<TaskResultName> {
    const reported = resultOfExitCode(exit.code);
    const result = reported ?? 'failed';
    if (reported === undefined) this.#crashed(worker, exit);
    this.deps.term.line(`${stamp()}: Job ${this.job.jobDisplayName} completed with result: ${resultName(result)}`);
    await renewal.stop();
    if (reported === undefined) await this.#report(result, worker.output(), `The runner worker exited with ${exitHow(exit)} before it reported the job.`);
    else if (this.#listenerFinishes) await this.#report(result, undefined);
    return result;
  }

  /** Cancelled, stopping, or the lock was lost: tell the worker, give it its time, then kill it. */
  async #stopWorker(worker: WorkerProcess, renewal: LockRenewal, outcome: TaskResultName): Promise<TaskResultName> {
    const { term, timings } = this.deps;
    if (outcome === 'abandoned') this.#requestStop('cancel', timings.cancelMinimumMs - timings.cancelKillMarginMs);
    const type = this.#stopKind === 'shutdown' ? WorkerMessageType.RunnerShutdown : WorkerMessageType.CancelRequest;
    try {
      await worker.send({ type, body: '' }, timings.channelTimeoutMs);
    } catch (error) {
      this.deps.diagnostic(`cannot tell the worker to stop (${(error as Error).message}); killing it`);
      this.#markKill();
    }
    const first = await Promise.race([worker.exited, this.#killNow.then(() => undefined)]);
    let exit = first;
    let killed = false;
    if (exit === undefined) {
      term.line(`${stamp()}: The job did not stop in time; stopping the worker.`);
      worker.kill();
      killed = true;
      exit = await worker.exited;
    }
    const workerReported = !killed && resultOfExitCode(exit.code) !== undefined;
    if (!killed && !workerReported) this.#crashed(worker, exit);
    term.line(`${stamp()}: Job ${this.job.jobDisplayName} completed with result: ${resultName(outcome)}`);
    await renewal.stop();
    const why = killed ? 'The runner worker did not stop in time and was killed.' : `The runner worker exited with ${exitHow(exit)} before it reported the job.`;
    if (!workerReported || this.#listenerFinishes) await this.#report(outcome, workerReported ? undefined : worker.output(), workerReported ? undefined : why);
    return outcome;
  }

  /** Legacy plans before version 8 are finished by the listener (§2.8). */
  get #listenerFinishes(): boolean {
    return !this.job.runService && this.job.planVersion < JOB_COMPLETED_PLAN_VERSION;
  }

  #crashed(worker: WorkerProcess, exit: WorkerExit): void {
    const how = exitHow(exit);
    const tail = worker.output().slice(-20);
    this.deps.term.error(`${stamp()}: The worker of job ${this.job.jobDisplayName} crashed (${how})${tail.length === 0 ? '' : `:\n${tail.join('\n')}`}`);
  }

  async #report(result: TaskResultName, output: readonly string[] | undefined, failureReason?: string): Promise<void> {
    try {
      await this.deps.services.reporter.report(result, output, failureReason);
    } catch (error) {
      this.deps.term.error(`${stamp()}: ${(error as Error).message}`);
    }
  }
}

/** "signal SIGKILL" or "exit code 3". */
function exitHow(exit: WorkerExit): string {
  return exit.signal === null ? `exit code ${String(exit.code)}` : `signal ${exit.signal}`;
}
