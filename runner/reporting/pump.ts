/**
 * A background task run on a cadence, never twice at once: the shape of the runner's queue
 * loops (timeline every 500 ms, uploads every second, the live feed every 250/500 ms). `drain`
 * runs it once more after any run in progress, for the final flush; `nudge` runs it now instead
 * of at the next tick (work that should not wait for the cadence: a step's finished log). Errors
 * are the task's to handle; one that escapes is reported and the pump keeps going.
 */
export class Pump {
  readonly #task: () => Promise<unknown>;
  readonly #interval: () => number;
  readonly #onError: (error: unknown) => void;
  #timer: NodeJS.Timeout | undefined;
  #running: Promise<void> | undefined;
  #stopped = false;
  #soon = false;

  constructor(task: () => Promise<unknown>, interval: () => number, onError: (error: unknown) => void) {
    this.#task = task;
    this.#interval = interval;
    this.#onError = onError;
  }

  start(): void {
    if (this.#stopped || this.#timer !== undefined) return;
    this.#schedule();
  }

  /** Waits for a run in progress, then runs the task once more. */
  async drain(): Promise<void> {
    await this.#run();
  }

  /** Runs the task now (after a run in progress), then goes on at the cadence. */
  nudge(): void {
    if (this.#stopped) return;
    this.#soon = true;
    // Between runs: the next one now. During a run: the one scheduled after it, at once.
    if (this.#timer !== undefined) {
      clearTimeout(this.#timer);
      this.#schedule();
    }
  }

  /** No more scheduled runs (a run in progress finishes; `drain` still works). */
  stop(): void {
    this.#stopped = true;
    if (this.#timer !== undefined) clearTimeout(this.#timer);
    this.#timer = undefined;
  }

  #schedule(): void {
    this.#timer = setTimeout(() => {
      this.#timer = undefined;
      this.#soon = false;
      void this.#run().finally(() => {
        if (!this.#stopped) this.#schedule();
      });
    }, this.#soon ? 0 : this.#interval());
  }

  async #run(): Promise<void> {
    while (this.#running !== undefined) await this.#running;
    const run = this.#task().then(
      () => undefined,
      (error: unknown) => this.#onError(error),
    );
    this.#running = run;
    try {
      await run;
    } finally {
      this.#running = undefined;
    }
  }
}
