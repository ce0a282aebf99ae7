import type { Logger } from '../../core/kernel/index.js';
import type { NotifyListener } from '../../core/ports/index.js';

/**
 * Who listens on which (backend-side) channel name, for the networked notifiers: each
 * subscription is its own entry (one listener subscribed twice is called twice), removal is
 * idempotent, and a listener that throws is logged without stopping the others.
 */
export class ListenerRegistry {
  readonly #listeners = new Map<string, Set<NotifyListener>>();

  constructor(private readonly logger?: Logger) {}

  /** Adds a subscription; returns the function that removes exactly it (once). */
  add(name: string, listener: NotifyListener): () => void {
    const entry: NotifyListener = (payload) => listener(payload);
    let set = this.#listeners.get(name);
    if (set === undefined) this.#listeners.set(name, (set = new Set()));
    set.add(entry);
    let present = true;
    return () => {
      if (!present) return;
      present = false;
      const current = this.#listeners.get(name);
      current?.delete(entry);
      if (current?.size === 0) this.#listeners.delete(name);
    };
  }

  /** Channel names with at least one subscription. */
  names(): string[] {
    return [...this.#listeners.keys()];
  }

  has(name: string): boolean {
    return this.#listeners.has(name);
  }

  deliver(name: string, payload: string): void {
    for (const listener of [...(this.#listeners.get(name) ?? [])]) {
      try {
        listener(payload);
      } catch (error) {
        this.logger?.error({ err: error, channel: name }, 'notification listener threw');
      }
    }
  }

  clear(): void {
    this.#listeners.clear();
  }
}
