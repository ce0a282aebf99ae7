import { ConfigError } from '../../core/kernel/index.js';

export const DEFAULT_PREFIX = 'svc:';
const PREFIX = /^[A-Za-z0-9_.:-]{1,64}$/;

export interface RedisLocation {
  /** What ioredis connects with (our `prefix` parameter removed). */
  readonly connectionUrl: string;
  /** Put before every key and channel name. */
  readonly prefix: string;
  /** The URL without password or query, for logs and error messages. */
  readonly display: string;
}

/** Reads SVC_REDIS_URL: `redis[s]://[user:password@]host:port[/db][?prefix=svc:]`. */
export function parseRedisUrl(url: string | undefined): RedisLocation {
  if (url === undefined || url === '') {
    throw new ConfigError('the redis backend needs a connection URL: set SVC_REDIS_URL to redis://host:6379', {
      details: { key: 'SVC_REDIS_URL' },
    });
  }
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new ConfigError('SVC_REDIS_URL is not a valid URL (expected redis://host:6379)', { details: { key: 'SVC_REDIS_URL' } });
  }
  if (parsed.protocol !== 'redis:' && parsed.protocol !== 'rediss:') {
    throw new ConfigError(`SVC_REDIS_URL must start with redis:// or rediss://, got ${parsed.protocol}//`, {
      details: { key: 'SVC_REDIS_URL' },
    });
  }
  const prefix = parsed.searchParams.get('prefix') ?? DEFAULT_PREFIX;
  if (!PREFIX.test(prefix)) {
    throw new ConfigError(`prefix ${JSON.stringify(prefix)} in SVC_REDIS_URL must be 1-64 characters of A-Z a-z 0-9 _ . : -`, {
      details: { key: 'SVC_REDIS_URL' },
    });
  }
  parsed.searchParams.delete('prefix');
  const display = `${parsed.protocol}//${parsed.host}${parsed.pathname}`;
  return { connectionUrl: parsed.toString(), prefix, display };
}
