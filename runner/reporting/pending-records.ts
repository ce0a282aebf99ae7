/**
 * Record updates waiting to be sent, one entry per record id in first-queued order, successive
 * updates merged with the mode's rule. A failed send puts its entries back underneath anything
 * queued since, so the retry carries the newest state (the runner's buffered retry records).
 */
export class PendingRecords<T> {
  readonly #merge: (older: T, newer: T) => T;
  #pending = new Map<string, T>();

  constructor(merge: (older: T, newer: T) => T) {
    this.#merge = merge;
  }

  get size(): number {
    return this.#pending.size;
  }

  add(id: string, value: T): void {
    const older = this.#pending.get(id);
    this.#pending.set(id, older === undefined ? value : this.#merge(older, value));
  }

  /** Takes up to `limit` entries (all without a limit). */
  take(limit = Number.POSITIVE_INFINITY): Array<[string, T]> {
    const taken: Array<[string, T]> = [];
    for (const entry of this.#pending) {
      if (taken.length >= limit) break;
      taken.push(entry);
    }
    for (const [id] of taken) this.#pending.delete(id);
    return taken;
  }

  /** Entries whose send failed go back, in front, under newer updates. */
  putBack(entries: ReadonlyArray<readonly [string, T]>): void {
    const rest = this.#pending;
    this.#pending = new Map(entries.map(([id, value]) => [id, value] as [string, T]));
    for (const [id, value] of rest) this.add(id, value);
  }
}
