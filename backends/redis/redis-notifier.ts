import { Redis } from 'ioredis';
import {
  UnavailableError,
  type BackendContext,
  type Logger,
  type NotifierBackend,
} from '../../core/kernel/index.js';
import type { Notifier, NotifyListener } from '../../core/ports/index.js';
import { assertChannel, ListenerRegistry } from '../notifier-common/index.js';
import { parseRedisUrl } from './redis-url.js';


/**
 * Pub/sub over two ioredis connections (a subscribed connection cannot publish). Channels are
 * `<prefix><channel>`, so installations and tests can share one Redis. ioredis reconnects and
 * re-subscribes by itself; after a reconnect each listener gets one empty wake-up, because
 * messages published meanwhile were lost and waiters should re-read.
 */
export async function createRedisNotifier(context: BackendContext): Promise<Notifier> {
  const location = parseRedisUrl(context.url);
  const options = { lazyConnect: true, connectionName: 'svc-notifier' } as const;
  const publisher = new Redis(location.connectionUrl, options);
  const subscriber = new Redis(location.connectionUrl, options);
  let lastError: Error | undefined;
  for (const [role, client] of [['publisher', publisher], ['subscriber', subscriber]] as const) {
    // Without a listener ioredis prints every connection error itself.
    client.on('error', (error: Error) => {
      lastError = error;
      context.logger.warn({ err: error, role }, 'Redis notifier connection error');
    });
  }
  try {
    await Promise.all([publisher.connect(), subscriber.connect()]);
  } catch (failure) {
    publisher.disconnect();
    subscriber.disconnect();
    // connect() only says "Connection is closed"; the error event carries the reason.
    const error = lastError ?? failure;
    throw new UnavailableError(`cannot reach Redis at ${location.display}: ${(error as Error).message}`, {
      code: 'notifier_unavailable',
      cause: error,
    });
  }
  return new RedisNotifier(publisher, subscriber, location.prefix, context.logger);
}

class RedisNotifier implements Notifier {
  readonly kind = 'redis';
  readonly #listeners: ListenerRegistry;
  /** Channels SUBSCRIBEd on the subscriber connection. */
  readonly #subscribed = new Set<string>();
  #sync: Promise<void> = Promise.resolve();
  #closed = false;

  constructor(
    private readonly publisher: Redis,
    private readonly subscriber: Redis,
    private readonly prefix: string,
    private readonly logger: Logger,
  ) {
    this.#listeners = new ListenerRegistry(logger);
    subscriber.on('message', (name: string, payload: string) => this.#deliver(name, payload));
    let connectedBefore = false;
    subscriber.on('ready', () => {
      if (connectedBefore) {
        logger.info('Redis notifier connection restored');
        for (const name of this.#listeners.names()) this.#deliver(name, '');
      }
      connectedBefore = true;
    });
  }

  async notify(channel: string, payload = ''): Promise<void> {
    const name = this.#name(channel);
    this.#assertOpen();
    await this.publisher.publish(name, payload);
  }

  async subscribe(channel: string, listener: NotifyListener): Promise<() => Promise<void>> {
    const name = this.#name(channel);
    this.#assertOpen();
    const remove = this.#listeners.add(name, listener);
    try {
      await this.#reconcile();
    } catch (error) {
      remove();
      throw new UnavailableError(`cannot subscribe to ${channel} on Redis: ${(error as Error).message}`, { cause: error });
    }
    let subscribed = true;
    return async () => {
      if (!subscribed) return;
      subscribed = false;
      remove();
      if (!this.#closed) await this.#reconcile();
    };
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    this.#listeners.clear();
    await Promise.allSettled([this.subscriber.quit(), this.publisher.quit()]);
  }

  #name(channel: string): string {
    return `${this.prefix}${assertChannel(channel)}`;
  }

  #assertOpen(): void {
    if (this.#closed) throw new UnavailableError('the Redis notifier is closed', { code: 'notifier_closed' });
  }

  /** Brings SUBSCRIBE state in line with the listeners; serialized so commands never interleave. */
  #reconcile(): Promise<void> {
    const run = this.#sync.then(() => this.#reconcileNow());
    this.#sync = run.catch(() => undefined);
    return run;
  }

  async #reconcileNow(): Promise<void> {
    const add = [...this.#listeners.names()].filter((name) => !this.#subscribed.has(name));
    const drop = [...this.#subscribed].filter((name) => !this.#listeners.has(name));
    if (add.length > 0) {
      await this.subscriber.subscribe(...add);
      for (const name of add) this.#subscribed.add(name);
    }
    if (drop.length > 0) {
      await this.subscriber.unsubscribe(...drop);
      for (const name of drop) this.#subscribed.delete(name);
    }
  }

  #deliver(name: string, payload: string): void {
    this.#listeners.deliver(name, payload);
  }
}

export const redisNotifier: NotifierBackend = {
  kind: 'notifier',
  id: 'redis',
  create: createRedisNotifier,
};
