import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ConfigError } from '../errors.js';
import { listenUrl, MAX_SOCKET_PATH_BYTES, readEnvConfig } from './env-config.js';

describe('SVC_* environment', () => {
  it('uses the spec defaults when nothing is set', () => {
    const config = readEnvConfig({});
    assert.deepEqual(config.listen, { host: '127.0.0.1', port: 9090 });
    assert.equal(config.registrationPolicy, 'strict');
    assert.equal(config.forgeApiUrl, 'https://api.github.com');
    assert.deepEqual(config.webhook, {
      watchdog: true,
      watchdogIntervalSecs: 300,
      watchdogGraceSecs: 120,
      watchdogMaxAttempts: 5,
      watchdogMaxPages: 5,
      healthIntervalSecs: 900,
      workers: 8,
    });
    assert.deepEqual(config.forgeBreaker, { enabled: true, threshold: 3 });
    assert.deepEqual(config.warnings, []);
  });

  it('parses IPv4, names and bracketed IPv6 listen addresses', () => {
    assert.deepEqual(readEnvConfig({ SVC_LISTEN: '0.0.0.0:8080' }).listen, { host: '0.0.0.0', port: 8080 });
    assert.deepEqual(readEnvConfig({ SVC_LISTEN: 'localhost:0' }).listen, { host: 'localhost', port: 0 });
    assert.deepEqual(readEnvConfig({ SVC_LISTEN: '[::1]:9090' }).listen, { host: '::1', port: 9090 });
  });

  it('makes the listen address a URL this machine reaches: wildcards become loopback, IPv6 is bracketed', () => {
    assert.equal(listenUrl('0.0.0.0', 8080), 'http://127.0.0.1:8080');
    assert.equal(listenUrl('::', 8080), 'http://[::1]:8080');
    assert.equal(listenUrl('::1', 9090), 'http://[::1]:9090');
    assert.equal(listenUrl('10.1.2.3', 9090), 'http://10.1.2.3:9090');
    assert.equal(listenUrl('ci.example', 9090), 'http://ci.example:9090');
  });

  for (const bad of ['9090', 'host:', 'host:99999', ':::1:80', '[nothost]:80', 'a b:80']) {
    it(`refuses SVC_LISTEN='${bad}' naming the variable`, () => {
      assert.throws(() => readEnvConfig({ SVC_LISTEN: bad }), (error: unknown) => {
        assert.ok(error instanceof ConfigError);
        assert.match(error.message, /SVC_LISTEN/);
        return true;
      });
    });
  }

  it('reads SVC_RUNNER_FLOW: legacy by default, broker on request, anything else refused', () => {
    assert.equal(readEnvConfig({}).runnerFlow, 'legacy');
    assert.equal(readEnvConfig({ SVC_RUNNER_FLOW: 'Broker' }).runnerFlow, 'broker');
    assert.throws(() => readEnvConfig({ SVC_RUNNER_FLOW: 'v2' }), /SVC_RUNNER_FLOW='v2' is not allowed/);
  });

  it('takes SVC_RUNNER_SOCKET as an absolute socket path the platform can bind', () => {
    assert.equal(readEnvConfig({}).runnerSocket, undefined);
    assert.equal(readEnvConfig({ SVC_RUNNER_SOCKET: '' }).runnerSocket, undefined);
    assert.equal(readEnvConfig({ SVC_RUNNER_SOCKET: ' /run/svc/runner.sock ' }).runnerSocket, '/run/svc/runner.sock');
    assert.throws(() => readEnvConfig({ SVC_RUNNER_SOCKET: 'runner.sock' }), /SVC_RUNNER_SOCKET='runner.sock' must be an absolute path/);
    assert.throws(() => readEnvConfig({ SVC_RUNNER_SOCKET: '/run/svc/' }), /SVC_RUNNER_SOCKET='\/run\/svc\/' names a directory/);
    const long = `/run/${'s'.repeat(MAX_SOCKET_PATH_BYTES)}.sock`;
    assert.throws(() => readEnvConfig({ SVC_RUNNER_SOCKET: long }), new RegExp(`SVC_RUNNER_SOCKET=.* is ${long.length} bytes long; a Unix socket path may have at most ${MAX_SOCKET_PATH_BYTES}`));
    const longest = `/${'s'.repeat(MAX_SOCKET_PATH_BYTES - 1)}`;
    assert.equal(readEnvConfig({ SVC_RUNNER_SOCKET: longest }).runnerSocket, longest);
  });

  it('refuses permissive registration on a non-loopback listener', () => {
    assert.throws(() => readEnvConfig({ SVC_REGISTRATION_POLICY: 'permissive', SVC_LISTEN: '0.0.0.0:9090' }), /only allowed on a loopback listener/);
    assert.equal(readEnvConfig({ SVC_REGISTRATION_POLICY: 'permissive' }).registrationPolicy, 'permissive');
    assert.equal(readEnvConfig({ SVC_REGISTRATION_POLICY: 'Permissive', SVC_LISTEN: '[::1]:1' }).registrationPolicy, 'permissive');
  });

  it('names the allowed values of enumerated variables', () => {
    assert.throws(() => readEnvConfig({ SVC_CREDENTIAL_STORE: 'vault' }), /SVC_CREDENTIAL_STORE='vault' is not allowed; use one of: file, memory, os/);
    assert.throws(() => readEnvConfig({ SVC_REGISTRATION_POLICY: 'open' }), /strict, permissive/);
    assert.throws(() => readEnvConfig({ SVC_LOG_LEVEL: 'loud' }), /SVC_LOG_LEVEL/);
  });

  it('takes SVC_ACTIONS_MIRROR_DIR as an absolute path only', () => {
    assert.equal(readEnvConfig({}).actionsMirrorDir, undefined);
    assert.equal(readEnvConfig({ SVC_ACTIONS_MIRROR_DIR: '/srv/actions' }).actionsMirrorDir, '/srv/actions');
    assert.throws(() => readEnvConfig({ SVC_ACTIONS_MIRROR_DIR: 'actions' }), /SVC_ACTIONS_MIRROR_DIR='actions' must be an absolute path/);
  });

  it('tells a forge the operator configured from the default one', () => {
    assert.equal(readEnvConfig({}).forgeConfigured, false);
    assert.equal(readEnvConfig({ SVC_FORGE_API_URL: ' ' }).forgeConfigured, false);
    const enterprise = readEnvConfig({ SVC_FORGE_API_URL: 'https://ghe.example/api/v3/' });
    assert.equal(enterprise.forgeConfigured, true);
    assert.equal(enterprise.forgeApiUrl, 'https://ghe.example/api/v3');
    const tokenOnly = readEnvConfig({ SVC_FORGE_TOKEN: 'ghp_x' });
    assert.equal(tokenOnly.forgeConfigured, true);
    assert.equal(tokenOnly.forgeApiUrl, 'https://api.github.com');
  });

  it("reads the forge's git URL (SVC_FORGE_GIT_URL), unset by default", () => {
    assert.equal(readEnvConfig({}).forgeGitUrl, undefined);
    assert.equal(readEnvConfig({ SVC_FORGE_GIT_URL: 'https://git.example/' }).forgeGitUrl, 'https://git.example');
    assert.throws(() => readEnvConfig({ SVC_FORGE_GIT_URL: 'git@github.com:acme' }), /SVC_FORGE_GIT_URL='git@github.com:acme' (is not a URL|must be an http)/);
  });

  it('checks URL variables', () => {
    assert.throws(() => readEnvConfig({ SVC_PUBLIC_URL: 'ci.example.com' }), /SVC_PUBLIC_URL='ci.example.com' is not a URL/);
    assert.throws(() => readEnvConfig({ SVC_PUBLIC_URL: 'ftp://x' }), /http:\/\/ or https:\/\//);
    assert.throws(() => readEnvConfig({ SVC_DATABASE_URL: 'mysql://x/y' }), /SVC_DATABASE_URL must start with postgres:\/\//);
    assert.throws(() => readEnvConfig({ SVC_REDIS_URL: 'http://x' }), /SVC_REDIS_URL must start with redis:\/\//);
    assert.equal(readEnvConfig({ SVC_PUBLIC_URL: 'https://ci.example.com/' }).publicUrl, 'https://ci.example.com');
  });

  it('does not echo a database URL, which may hold a password, in its error', () => {
    assert.throws(() => readEnvConfig({ SVC_DATABASE_URL: 'mysql://u:hunter2@x/y' }), (error: unknown) => !String((error as Error).message).includes('hunter2'));
  });

  it('refuses a short system token', () => {
    assert.throws(() => readEnvConfig({ SVC_SYSTEM_TOKEN: 'short' }), /SVC_SYSTEM_TOKEN is shorter than 16/);
  });
});

describe('HTTP limits (SVC_HTTP_*_TIMEOUT_SECS in seconds, SVC_MAX_CONNECTIONS_PER_IP)', () => {
  const cases: [string, string, (c: ReturnType<typeof readEnvConfig>) => number, number, boolean][] = [
    ['SVC_HTTP_HEADERS_TIMEOUT_SECS', '', (c) => c.http.headersTimeoutMs, 30_000, false],
    ['SVC_HTTP_HEADERS_TIMEOUT_SECS', '5', (c) => c.http.headersTimeoutMs, 5_000, false],
    ['SVC_HTTP_HEADERS_TIMEOUT_SECS', '0', (c) => c.http.headersTimeoutMs, 30_000, true],
    ['SVC_HTTP_REQUEST_TIMEOUT_SECS', 'slow', (c) => c.http.requestTimeoutMs, 600_000, true],
    ['SVC_HTTP_REQUEST_TIMEOUT_SECS', '10', (c) => c.http.headersTimeoutMs, 10_000, false],
    ['SVC_HTTP_IDLE_TIMEOUT_SECS', '90', (c) => c.http.idleTimeoutMs, 90_000, false],
    ['SVC_MAX_CONNECTIONS_PER_IP', '', (c) => c.http.maxConnectionsPerIp, 256, false],
    ['SVC_MAX_CONNECTIONS_PER_IP', '0', (c) => c.http.maxConnectionsPerIp, 0, false],
    ['SVC_MAX_CONNECTIONS_PER_IP', '-1', (c) => c.http.maxConnectionsPerIp, 256, true],
  ];
  for (const [name, raw, read, expected, warns] of cases) {
    it(`${name}='${raw}' gives ${expected}`, () => {
      const config = readEnvConfig({ [name]: raw });
      assert.equal(read(config), expected);
      assert.equal(config.warnings.some((w) => w.includes(name)), warns, 'a fallback is reported as a warning');
    });
  }
});

describe('numeric knobs fall back as the spec table says', () => {
  const cases: [string, string, (c: ReturnType<typeof readEnvConfig>) => number, number][] = [
    ['SVC_WEBHOOK_WATCHDOG_INTERVAL_SECS', '3', (c) => c.webhook.watchdogIntervalSecs, 10],
    ['SVC_WEBHOOK_WATCHDOG_INTERVAL_SECS', 'often', (c) => c.webhook.watchdogIntervalSecs, 300],
    ['SVC_WEBHOOK_WATCHDOG_INTERVAL_SECS', '45', (c) => c.webhook.watchdogIntervalSecs, 45],
    ['SVC_WEBHOOK_WATCHDOG_GRACE_SECS', '0', (c) => c.webhook.watchdogGraceSecs, 0],
    ['SVC_WEBHOOK_WATCHDOG_GRACE_SECS', '-5', (c) => c.webhook.watchdogGraceSecs, 120],
    ['SVC_WEBHOOK_WATCHDOG_MAX_ATTEMPTS', 'x', (c) => c.webhook.watchdogMaxAttempts, 5],
    ['SVC_WEBHOOK_WATCHDOG_MAX_PAGES', '0', (c) => c.webhook.watchdogMaxPages, 1],
    ['SVC_WEBHOOK_HEALTH_INTERVAL_SECS', '30', (c) => c.webhook.healthIntervalSecs, 60],
    ['SVC_WEBHOOK_HEALTH_INTERVAL_SECS', '1.5', (c) => c.webhook.healthIntervalSecs, 900],
    ['SVC_WEBHOOK_WORKERS', 'many', (c) => c.webhook.workers, 8],
    ['SVC_WEBHOOK_WORKERS', '0', (c) => c.webhook.workers, 1],
    ['SVC_WEBHOOK_WORKERS', '16', (c) => c.webhook.workers, 16],
    ['SVC_FORGE_BREAKER_THRESHOLD', '0', (c) => c.forgeBreaker.threshold, 3],
    ['SVC_FORGE_BREAKER_THRESHOLD', 'abc', (c) => c.forgeBreaker.threshold, 3],
    ['SVC_FORGE_BREAKER_THRESHOLD', '7', (c) => c.forgeBreaker.threshold, 7],
    ['SVC_SNAPSHOT_MAX_BYTES', '0', (c) => c.snapshots.maxBytes, 1024 ** 3],
    ['SVC_SNAPSHOT_MAX_BYTES', '1GiB', (c) => c.snapshots.maxBytes, 1024 ** 3],
    ['SVC_SNAPSHOT_MAX_BYTES', '5000000', (c) => c.snapshots.maxBytes, 5_000_000],
    ['SVC_SNAPSHOT_RETENTION_SECS', '10', (c) => c.snapshots.retentionSecs, 60],
    ['SVC_SNAPSHOT_RETENTION_SECS', 'soon', (c) => c.snapshots.retentionSecs, 1800],
    ['SVC_SNAPSHOT_RETENTION_SECS', '3600', (c) => c.snapshots.retentionSecs, 3600],
  ];
  for (const [name, raw, read, expected] of cases) {
    it(`${name}=${raw} gives ${expected}`, () => {
      const config = readEnvConfig({ [name]: raw });
      assert.equal(read(config), expected);
      if (String(expected) !== raw) assert.ok(config.warnings.some((w) => w.includes(name)), 'a fallback is reported as a warning');
    });
  }

  for (const off of ['off', '0', 'false', 'disabled', 'OFF']) {
    it(`SVC_WEBHOOK_WATCHDOG=${off} and SVC_FORGE_BREAKER=${off} disable`, () => {
      const config = readEnvConfig({ SVC_WEBHOOK_WATCHDOG: off, SVC_FORGE_BREAKER: off });
      assert.equal(config.webhook.watchdog, false);
      assert.equal(config.forgeBreaker.enabled, false);
    });
  }
  it('any other spelling enables the watchdog', () => {
    assert.equal(readEnvConfig({ SVC_WEBHOOK_WATCHDOG: 'no' }).webhook.watchdog, true);
  });
  it('SVC_ENABLE_APP_REGISTRATION is off unless 1, true or on', () => {
    assert.equal(readEnvConfig({}).enableAppRegistration, false);
    assert.equal(readEnvConfig({ SVC_ENABLE_APP_REGISTRATION: 'yes' }).enableAppRegistration, false);
    for (const on of ['1', 'true', 'on', 'ON']) assert.equal(readEnvConfig({ SVC_ENABLE_APP_REGISTRATION: on }).enableAppRegistration, true);
  });
});
