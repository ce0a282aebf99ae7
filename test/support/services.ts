/**
 * The real services integration tests run against (STYLE.md: never a mock of them).
 *
 * - `SVC_TEST_POSTGRES_URL` (e.g. postgres://postgres@127.0.0.1:5432/test)
 * - `SVC_TEST_REDIS_URL` (e.g. redis://127.0.0.1:6379)
 *
 * Outside CI an unset variable skips that service's suites with a loud message. With `CI=true`
 * an unset variable is a failure, and so is an unreachable service whenever its URL is set.
 * Each test gets its own PostgreSQL schema, Redis prefix and temp directory, dropped afterwards,
 * so files run in parallel against one server.
 */
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test, type TestContext } from 'node:test';
import { Redis } from 'ioredis';
import pg from 'pg';

export type ServiceName = 'postgres' | 'redis';

export const SERVICE_VARIABLES: Readonly<Record<ServiceName, string>> = {
  postgres: 'SVC_TEST_POSTGRES_URL',
  redis: 'SVC_TEST_REDIS_URL',
};

export interface ServiceGate {
  /** The service URL when it is usable. */
  readonly url: string | undefined;
  /** For the `skip` option of describe/test: false when usable, the reason otherwise. */
  readonly skip: string | false;
}

const PROBE_TIMEOUT_MS = 3000;

/**
 * Checks that a service is configured and answers. Call at the top of a test file (top-level
 * await). When it must fail (CI, or a URL that does not answer), it registers one failing test
 * naming the variable and tells the rest to skip; when it may skip, it says so on stderr.
 */
export async function requireService(name: ServiceName): Promise<ServiceGate> {
  const variable = SERVICE_VARIABLES[name];
  const url = process.env[variable];
  const inCi = process.env['CI'] === 'true';
  if (url === undefined || url === '') {
    if (inCi) return failed(name, `${variable} is not set; CI must run the ${name} suites (set ${variable})`);
    const reason = `${variable} is not set: ${name} suites SKIPPED (set ${variable} to run them)`;
    process.stderr.write(`\n${'!'.repeat(80)}\n!! ${reason}\n${'!'.repeat(80)}\n\n`);
    // Skipped suites do not show in the summary counts; this one skipped test does.
    test(`${name} suites`, { skip: reason }, () => undefined);
    return { url: undefined, skip: reason };
  }
  try {
    await (name === 'postgres' ? probePostgres(url) : probeRedis(url));
  } catch (error) {
    return failed(name, `${variable} is set but ${name} does not answer at ${redact(url)}: ${(error as Error).message}`);
  }
  return { url, skip: false };
}

function failed(name: ServiceName, message: string): ServiceGate {
  test(`${name} is reachable`, () => {
    throw new Error(message);
  });
  return { url: undefined, skip: `${message} (see the failing test)` };
}

async function probePostgres(url: string): Promise<void> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: PROBE_TIMEOUT_MS });
  client.on('error', () => undefined);
  try {
    await client.connect();
    await client.query('select 1');
  } finally {
    await client.end().catch(() => undefined);
  }
}

async function probeRedis(url: string): Promise<void> {
  const client = new Redis(url, {
    lazyConnect: true,
    connectTimeout: PROBE_TIMEOUT_MS,
    maxRetriesPerRequest: 0,
    retryStrategy: () => null,
  });
  let lastError: Error | undefined;
  client.on('error', (error: Error) => (lastError = error));
  try {
    await client.connect();
    await client.ping();
  } catch (error) {
    throw lastError ?? error;
  } finally {
    client.disconnect();
  }
}

function redact(url: string): string {
  return url.replace(/\/\/[^@/]*@/, '//***@');
}

// ---- per-test resources --------------------------------------------------------------------

type Cleanup = () => Promise<void> | void;
const cleanups = new WeakMap<TestContext, Cleanup[]>();

/** Runs `fn` after the test, last registered first (so stores close before their schema goes). */
export function onCleanup(t: TestContext, fn: Cleanup): void {
  let list = cleanups.get(t);
  if (list === undefined) {
    const fresh: Cleanup[] = [];
    cleanups.set(t, (list = fresh));
    t.after(async () => {
      for (const cleanup of fresh.reverse()) await cleanup();
    });
  }
  list.push(fn);
}

export function uniqueName(prefix: string): string {
  return `${prefix}${randomBytes(6).toString('hex')}`;
}

/** A private temp directory, removed after the test. */
export async function tempDir(t: TestContext): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'svc-test-'));
  onCleanup(t, () => rm(dir, { recursive: true, force: true }));
  return dir;
}

/**
 * A URL for a schema of this test's own (`?schema=svc_t_<random>`). The schema is not created
 * here (the store creates what it is given); it is dropped with everything in it afterwards.
 */
export function postgresSchemaUrl(t: TestContext, baseUrl: string): { readonly url: string; readonly schema: string } {
  const schema = uniqueName('svc_t_');
  const url = new URL(baseUrl);
  url.searchParams.set('schema', schema);
  onCleanup(t, () => dropPostgresSchema(baseUrl, schema));
  return { url: url.toString(), schema };
}

/** Drops a PostgreSQL schema with everything in it. */
export async function dropPostgresSchema(baseUrl: string, schema: string): Promise<void> {
  const client = new pg.Client({ connectionString: baseUrl });
  client.on('error', () => undefined);
  await client.connect();
  try {
    await client.query(`drop schema if exists "${schema}" cascade`);
  } finally {
    await client.end();
  }
}

/** Deletes every Redis key under `prefix`. */
export async function deleteRedisPrefix(baseUrl: string, prefix: string): Promise<void> {
  const client = new Redis(baseUrl, { lazyConnect: true, maxRetriesPerRequest: 1 });
  client.on('error', () => undefined);
  await client.connect();
  try {
    let cursor = '0';
    do {
      const [next, keys] = await client.scan(cursor, 'MATCH', `${prefix}*`, 'COUNT', 500);
      if (keys.length > 0) await client.del(...keys);
      cursor = next;
    } while (cursor !== '0');
  } finally {
    await client.quit();
  }
}

/** A URL with this test's own key/channel prefix (`?prefix=svc-test:<random>:`); its keys are deleted afterwards. */
export function redisPrefixUrl(t: TestContext, baseUrl: string): { readonly url: string; readonly prefix: string } {
  const prefix = `${uniqueName('svc-test:')}:`;
  const url = new URL(baseUrl);
  url.searchParams.set('prefix', prefix);
  onCleanup(t, () => deleteRedisPrefix(baseUrl, prefix));
  return { url: url.toString(), prefix };
}
