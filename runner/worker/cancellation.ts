/**
 * The job's cancellation (RUNNER-PROTOCOL.md §4.9, §6.6): a CancelRequest from the listener
 * cancels the job (result `canceled`); RunnerShutdown and OperatingSystemShutdown stop it as the
 * runner is going away (result `failed`, with the runner's error issue on the job).
 */
export type CancelReason = 'cancel' | 'runner-shutdown' | 'os-shutdown';

export class JobCancellation {
  readonly #controller = new AbortController();
  #reason: CancelReason | undefined;
  readonly #listeners = new Set<(reason: CancelReason) => void>();

  get signal(): AbortSignal {
    return this.#controller.signal;
  }

  get requested(): boolean {
    return this.#reason !== undefined;
  }

  get reason(): CancelReason | undefined {
    return this.#reason;
  }

  /** The runner is shutting down (not a cancellation of the job by the server). */
  get shutdown(): boolean {
    return this.#reason === 'runner-shutdown' || this.#reason === 'os-shutdown';
  }

  /** The first reason wins; later calls do nothing. */
  cancel(reason: CancelReason): void {
    if (this.#reason !== undefined) return;
    this.#reason = reason;
    this.#controller.abort(reason);
    for (const listener of [...this.#listeners]) listener(reason);
  }

  /** Calls `listener` when the job is cancelled; answers the function that unregisters it. */
  onCancel(listener: (reason: CancelReason) => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }
}
