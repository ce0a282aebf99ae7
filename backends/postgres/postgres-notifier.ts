import pg from 'pg';
import {
  InputError,
  UnavailableError,
  type BackendContext,
  type Logger,
  type NotifierBackend,
} from '../../core/kernel/index.js';
import type { Notifier, NotifyListener } from '../../core/ports/index.js';
import { assertChannel, ListenerRegistry } from '../notifier-common/index.js';
import { parsePostgresUrl } from './connection-url.js';

/** PostgreSQL's limits: channel names are identifiers, payloads shorter than 8000 bytes. */
const MAX_CHANNEL_BYTES = 63;
const MAX_PAYLOAD_BYTES = 7999;
const BACKOFF_MIN_MS = 100;
const BACKOFF_MAX_MS = 5000;

export interface PostgresNotifierOptions {
  /** Names the listening connection in pg_stat_activity (tests use it to cut the connection). */
  readonly applicationName?: string;
}

/**
 * LISTEN/NOTIFY. One dedicated connection LISTENs; a small pool sends `pg_notify`. Channels are
 * scoped to the schema from the URL, like the tables. When the listening connection drops it is
 * re-opened with exponential backoff, every channel is LISTENed again, and each listener gets
 * one empty wake-up, because notifications sent meanwhile were lost and waiters should re-read.
 * While the connection is down, `subscribe` records the listener and returns at once (the
 * reconnect LISTENs it); it never waits on, or fails because of, the outage.
 */
export async function createPostgresNotifier(context: BackendContext, options: PostgresNotifierOptions = {}): Promise<Notifier> {
  const location = parsePostgresUrl(context.url);
  const notifier = new PostgresNotifier(
    location.connectionString,
    location.schema === undefined ? '' : `${location.schema}.`,
    options.applicationName ?? 'svc-notifier',
    context.logger,
  );
  try {
    await notifier.start();
  } catch (error) {
    await notifier.close();
    throw new UnavailableError(`cannot LISTEN on PostgreSQL at ${location.display}: ${(error as Error).message}`, {
      code: 'notifier_unavailable',
      cause: error,
    });
  }
  return notifier;
}

class PostgresNotifier implements Notifier {
  readonly kind = 'postgres';
  readonly #listeners: ListenerRegistry;
  /** Channels LISTENed on the current connection. */
  readonly #listening = new Set<string>();
  readonly #pool: pg.Pool;
  #client: pg.Client | undefined;
  #sync: Promise<void> = Promise.resolve();
  #retry: NodeJS.Timeout | undefined;
  #attempt = 0;
  #closed = false;

  constructor(
    private readonly connectionString: string,
    private readonly prefix: string,
    private readonly applicationName: string,
    private readonly logger: Logger,
  ) {
    this.#listeners = new ListenerRegistry(logger);
    this.#pool = new pg.Pool({ connectionString, max: 2, application_name: 'svc-notify' });
    this.#pool.on('error', (error) => logger.warn({ err: error }, 'an idle PostgreSQL notify connection failed'));
  }

  async start(): Promise<void> {
    this.#client = await this.#connect();
  }

  async notify(channel: string, payload = ''): Promise<void> {
    const name = this.#name(channel);
    if (Buffer.byteLength(payload) > MAX_PAYLOAD_BYTES) {
      throw new InputError(`notification payload is over ${MAX_PAYLOAD_BYTES} bytes; send an id and let waiters read the store`, {
        code: 'invalid_payload',
      });
    }
    this.#assertOpen();
    await this.#pool.query('select pg_notify($1, $2)', [name, payload]);
  }

  async subscribe(channel: string, listener: NotifyListener): Promise<() => Promise<void>> {
    const name = this.#name(channel);
    this.#assertOpen();
    const remove = this.#listeners.add(name, listener);
    await this.#reconcile();
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
    clearTimeout(this.#retry);
    this.#listeners.clear();
    const client = this.#client;
    this.#client = undefined;
    await Promise.allSettled([client?.end(), this.#pool.end()]);
  }

  #name(channel: string): string {
    const name = `${this.prefix}${assertChannel(channel)}`;
    if (Buffer.byteLength(name) > MAX_CHANNEL_BYTES) {
      throw new InputError(
        `notifier channel ${JSON.stringify(channel)} is too long for PostgreSQL with schema prefix ${JSON.stringify(this.prefix)} (at most ${MAX_CHANNEL_BYTES} bytes together)`,
        { code: 'invalid_channel' },
      );
    }
    return name;
  }

  #assertOpen(): void {
    if (this.#closed) throw new UnavailableError('the PostgreSQL notifier is closed', { code: 'notifier_closed' });
  }

  async #connect(): Promise<pg.Client> {
    const client = new pg.Client({ connectionString: this.connectionString, application_name: this.applicationName });
    client.on('notification', (message) => this.#deliver(message.channel, message.payload ?? ''));
    client.on('error', (error) => this.#lost(client, error));
    client.on('end', () => this.#lost(client, undefined));
    await client.connect();
    return client;
  }

  /** Brings LISTEN state in line with the listeners; serialized so LISTEN/UNLISTEN never interleave. */
  #reconcile(): Promise<void> {
    this.#sync = this.#sync.then(() => this.#reconcileNow());
    return this.#sync;
  }

  async #reconcileNow(): Promise<void> {
    const client = this.#client;
    if (client === undefined) return; // the reconnect LISTENs everything
    try {
      for (const name of this.#listeners.names()) {
        if (this.#listening.has(name)) continue;
        await client.query(`LISTEN ${quote(name)}`);
        this.#listening.add(name);
      }
      for (const name of [...this.#listening]) {
        if (this.#listeners.has(name)) continue;
        await client.query(`UNLISTEN ${quote(name)}`);
        this.#listening.delete(name);
      }
    } catch (error) {
      // Whatever failed, a fresh connection that LISTENs from scratch puts it right.
      this.#lost(client, error);
      client.end().catch(() => undefined);
    }
  }

  #deliver(name: string, payload: string): void {
    this.#listeners.deliver(name, payload);
  }

  #lost(client: pg.Client, error: unknown): void {
    if (client !== this.#client || this.#closed) return;
    this.#client = undefined;
    this.#listening.clear();
    this.logger.warn({ err: error }, 'PostgreSQL LISTEN connection lost; reconnecting');
    this.#scheduleReconnect();
  }

  #scheduleReconnect(): void {
    const ceiling = Math.min(BACKOFF_MAX_MS, BACKOFF_MIN_MS * 2 ** this.#attempt);
    const delay = ceiling / 2 + Math.random() * (ceiling / 2);
    this.#attempt += 1;
    this.#retry = setTimeout(() => void this.#reconnect(), delay);
  }

  async #reconnect(): Promise<void> {
    let client: pg.Client;
    try {
      client = await this.#connect();
    } catch (error) {
      if (this.#closed) return;
      this.logger.warn({ err: error, attempt: this.#attempt }, 'PostgreSQL LISTEN reconnect failed');
      this.#scheduleReconnect();
      return;
    }
    if (this.#closed) {
      await client.end().catch(() => undefined);
      return;
    }
    this.#client = client;
    this.#attempt = 0;
    await this.#reconcile();
    if (this.#client !== client) return; // lost again while re-LISTENing; the next round wakes
    this.logger.info('PostgreSQL LISTEN connection restored');
    for (const name of this.#listeners.names()) this.#deliver(name, '');
  }
}

/** Channel names are validated above; quoting keeps case and the `.:-` characters. */
function quote(name: string): string {
  return `"${name.replaceAll('"', '""')}"`;
}

export const postgresNotifier: NotifierBackend = {
  kind: 'notifier',
  id: 'postgres',
  create: (context) => createPostgresNotifier(context),
};
