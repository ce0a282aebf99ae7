/**
 * Wake-ups between writers and waiters: in-process on the embedded store, LISTEN/NOTIFY on
 * PostgreSQL, pub/sub on Redis. A notification is a hint, never the data: waiters re-read the
 * store, and also re-read on a timer, so a lost wake-up costs latency only.
 */
export type NotifyListener = (payload: string) => void;

export interface Notifier {
  /** Name for logs and /readyz. */
  readonly kind: string;
  /** Delivers to every subscriber of the channel on every node (including this one). */
  notify(channel: string, payload?: string): Promise<void>;
  /** Subscribes; resolves once the subscription is live. Returns the unsubscribe function. */
  subscribe(channel: string, listener: NotifyListener): Promise<() => Promise<void>>;
  close(): Promise<void>;
}

export interface WaitOptions {
  /** Longest wait before the timer fallback fires. */
  readonly timeoutMs: number;
  readonly signal?: AbortSignal;
}

/** Outcome of a wait: woken by a notification, by the timer, or aborted. */
export type WakeReason = 'notified' | 'timeout' | 'aborted';
