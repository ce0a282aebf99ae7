import type { WorkerProcess } from './worker-process.js';

/**
 * Where the listener gets a job's worker from. Starting node and loading the worker's modules
 * takes a few hundred ms, which the official runner spends after the job arrives; svc-runner
 * starts the worker ahead instead (`--prestarted`: it loads and warms its modules, then waits
 * for the job message without a time limit), so a job only waits for the IPC hand-over.
 *
 * - `prepare()` starts the spare: at listener start (in parallel with the session), and after
 *   each job when more jobs may come. One spare at most.
 * - `take()` hands over the spare if it is still running, else starts a worker on demand. A
 *   spare that died while idle is not restarted before the next job (no restart loop for a
 *   worker that cannot start); that job's worker is started on demand, as without a spare.
 * - `close()` (listener stopping) kills the spare; `prepare()` does nothing after it.
 *
 * A worker command that cannot wait (SVC_RUNNER_WORKER_COMMAND) gets no spare.
 */
export class WorkerSupply {
  readonly #start: (prestarted: boolean) => WorkerProcess;
  readonly #enabled: boolean;
  #spare: WorkerProcess | undefined;
  #closed = false;

  constructor(start: (prestarted: boolean) => WorkerProcess, enabled: boolean) {
    this.#start = start;
    this.#enabled = enabled;
  }

  prepare(): void {
    if (!this.#enabled || this.#closed || this.#spare !== undefined) return;
    const spare = this.#start(true);
    this.#spare = spare;
    void spare.exited.then(() => {
      if (this.#spare === spare) this.#spare = undefined;
    });
  }

  take(): WorkerProcess {
    const spare = this.#spare;
    this.#spare = undefined;
    if (spare !== undefined && spare.running) return spare;
    spare?.kill();
    return this.#start(false);
  }

  close(): void {
    this.#closed = true;
    this.#spare?.kill();
    this.#spare = undefined;
  }
}
