/**
 * One run of `work` per key at a time in this process: a caller that asks while a run for the
 * key is under way gets that run's outcome (a node materialises a commit once however many
 * requests want it at the same moment).
 */
export class SingleFlight {
  readonly #running = new Map<string, Promise<unknown>>();

  run<T>(key: string, work: () => Promise<T>): Promise<T> {
    const running = this.#running.get(key);
    if (running !== undefined) return running as Promise<T>;
    const started = work().finally(() => this.#running.delete(key));
    this.#running.set(key, started);
    return started;
  }
}
