/**
 * The runner Unix socket (SVC_RUNNER_SOCKET; SPEC Authentication rules 6 and 8): mode 0600, only
 * the runner surface (everything else is 404 there, whatever the credential), registration always
 * strict on it, a stale socket file replaced and a live one respected, the file gone after stop.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, lstatSync, mkdirSync, writeFileSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { describe, it, type TestContext } from 'node:test';
import { defaultCatalog } from '../../builtins/index.js';
import {
  coreServices,
  createHost,
  createSilentLogger,
  definePlugin,
  PluginError,
  type Host,
  type PluginDefinition,
} from '../../core/kernel/index.js';
import type { BlobStore, BlobUrlSigner } from '../../core/ports/index.js';
import { createHostEnv, TEST_SYSTEM_TOKEN, type HostEnv } from '../support/host-env.js';
import { onCleanup } from '../support/services.js';

interface Answer {
  readonly status: number;
  readonly headers: Record<string, string | string[] | undefined>;
  readonly body: string;
}

/** One HTTP/1.1 request over a Unix socket, as a socket client (svc-runner's `unix:`) makes it. */
function overSocket(socketPath: string, method: string, path: string, options: { headers?: Record<string, string>; json?: unknown } = {}): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const body = options.json === undefined ? undefined : JSON.stringify(options.json);
    const headers = { ...options.headers, ...(body === undefined ? {} : { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(body)) }) };
    const req = httpRequest({ socketPath, method, path, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString('utf8') }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(body);
  });
}

interface Grabbed {
  store: BlobStore;
  signer: BlobUrlSigner;
}

const GRABBER = 'socket-test-grabber';

function hostEnvWith(t: TestContext, env: Record<string, string>, plugins: readonly string[]): HostEnv {
  const hostEnv = createHostEnv(env);
  onCleanup(t, () => hostEnv.cleanup());
  hostEnv.writePlugins(plugins.map((id) => `[[plugin]]\nid = "${id}"\n`).join('\n'));
  return hostEnv;
}

async function socketHost(t: TestContext, env: Record<string, string> = {}): Promise<{ host: Host; socket: string; grabbed: Grabbed; hostEnv: HostEnv }> {
  let grabbed: Grabbed | undefined;
  const grabber = definePlugin({
    id: GRABBER,
    apiVersion: 1,
    deps: { store: coreServices.blobStore, signer: coreServices.blobSigner },
    init: (deps) => void (grabbed = deps),
  });
  const hostEnv = hostEnvWith(t, env, ['engine', 'runner-protocol', 'blobs', 'management-api', GRABBER]);
  const socket = env.SVC_RUNNER_SOCKET ?? join(hostEnv.dir, 'runner.sock');
  hostEnv.env.SVC_RUNNER_SOCKET = socket;
  const host = await createHost({
    env: hostEnv.env,
    cwd: hostEnv.dir,
    logger: createSilentLogger(),
    catalog: { ...defaultCatalog, plugins: { ...defaultCatalog.plugins, [GRABBER]: async () => ({ plugin: grabber }) } },
  });
  onCleanup(t, () => host.stop());
  assert.ok(grabbed);
  return { host, socket, grabbed, hostEnv };
}

const SYSTEM = { authorization: `Bearer ${TEST_SYSTEM_TOKEN}` };

describe('the runner socket', () => {
  it('is a 0600 socket serving only the runner surface, and is removed at stop', async (t) => {
    const { host, socket, grabbed } = await socketHost(t);
    const baseUrl = await host.start();
    const file = lstatSync(socket);
    assert.ok(file.isSocket(), 'a socket file at SVC_RUNNER_SOCKET');
    assert.equal(file.mode & 0o777, 0o600, 'owner read/write only');

    // The runner surface: the location service answers, with URLs of the TCP listener (the
    // socket's Host header names nothing a runner could be sent to).
    const connection = await overSocket(socket, 'GET', '/_apis/connectionData?connectOptions=1&lastChangeId=-1&lastChangeId64=-1');
    assert.equal(connection.status, 200, connection.body);
    assert.match(connection.headers['content-type'] as string, /^application\/json/);
    assert.ok(connection.body.includes(`${baseUrl}/`), 'URLs point at the TCP listener');
    assert.ok(!connection.body.includes('http://localhost/'), 'not at the Host header of the socket request');
    const anonymous = await overSocket(socket, 'GET', '/_apis/distributedtask/pools');
    assert.equal(anonymous.status, 401, 'runner routes keep their own auth on the socket');
    assert.match(String(anonymous.headers['www-authenticate']), /Bearer/);

    // Signed blob downloads are runner surface; uploads are not.
    await grabbed.store.put('actions/acme/tool/abc.tar.gz', Buffer.from('archive bytes'));
    const download = grabbed.signer.sign({ key: 'actions/acme/tool/abc.tar.gz', method: 'GET', ttlSeconds: 60 });
    const blob = await overSocket(socket, 'GET', download);
    assert.equal(blob.status, 200);
    assert.equal(blob.body, 'archive bytes');
    const upload = grabbed.signer.sign({ key: 'logs/x.log', method: 'PUT', ttlSeconds: 60 });
    assert.equal((await overSocket(socket, 'PUT', upload, { json: {} })).status, 404, 'uploads stay on TCP');
    assert.equal((await host.app.inject({ method: 'PUT', url: upload, payload: 'x', headers: { 'content-type': 'text/plain' } })).statusCode, 201);

    // Everything else answers 404 there, whatever the credential.
    const status = await overSocket(socket, 'GET', '/api/v1/status', { headers: SYSTEM });
    assert.equal(status.status, 404);
    assert.equal((JSON.parse(status.body) as { code: string }).code, 'route_not_found');
    assert.equal((await host.app.inject({ method: 'GET', url: '/api/v1/status', headers: SYSTEM })).statusCode, 200, 'the operator API is on TCP');
    assert.equal((await overSocket(socket, 'POST', '/api/v1/runners/generate-jitconfig', { headers: SYSTEM, json: { name: 'x' } })).status, 404, 'JIT configs are operator API');
    assert.equal((await overSocket(socket, 'GET', '/readyz')).status, 404);

    const ready = await host.app.inject({ method: 'GET', url: '/readyz' });
    assert.deepEqual(ready.json(), { ready: true, reason: 'ready', runner_socket: socket });

    await host.stop();
    assert.equal(existsSync(socket), false, 'stop removes the socket file');
  });

  it('holds registration to the system token even when SVC_REGISTRATION_POLICY=permissive', async (t) => {
    const { host, socket } = await socketHost(t, { SVC_REGISTRATION_POLICY: 'permissive' });
    await host.start();
    const register = (authorization: string) => ({ headers: { authorization }, json: { url: 'http://localhost/acme/widgets', runner_event: 'register' } });

    const tcp = await host.app.inject({ method: 'POST', url: '/api/v3/actions/runner-registration', headers: { authorization: 'RemoteAuth anything-at-all' }, payload: register('').json });
    assert.equal(tcp.statusCode, 200, 'permissive applies on the loopback TCP listener');

    const refused = await overSocket(socket, 'POST', '/api/v3/actions/runner-registration', register('RemoteAuth anything-at-all'));
    assert.equal(refused.status, 401, refused.body);
    assert.match((JSON.parse(refused.body) as { message: string }).message, /--token <system token>/);
    const groups = await overSocket(socket, 'GET', '/api/v3/repos/acme/widgets/actions/runner-groups', { headers: { authorization: 'RemoteAuth anything-at-all' } });
    assert.equal(groups.status, 401, 'the runner-admin routes too');

    const accepted = await overSocket(socket, 'POST', '/api/v3/actions/runner-registration', register(`RemoteAuth ${TEST_SYSTEM_TOKEN}`));
    assert.equal(accepted.status, 200, accepted.body);
    const answer = JSON.parse(accepted.body) as { url: string; token: string };
    assert.equal(answer.url, 'http://localhost/', "the tenant is on the runner's --url authority, as the runner requires");
    assert.ok(answer.token.length > 0);
  });

  it('refuses a path whose directory is missing, or that holds something else, naming SVC_RUNNER_SOCKET', async (t) => {
    const holder = createHostEnv();
    onCleanup(t, () => holder.cleanup());
    const missing = await socketHost(t, { SVC_RUNNER_SOCKET: join(holder.dir, 'no-such-dir', 'runner.sock') });
    await assert.rejects(missing.host.start(), /SVC_RUNNER_SOCKET=.*no-such-dir.*does not exist/);
    assert.equal(missing.host.state, 'stopped', 'what was started is stopped again');

    const regular = join(holder.dir, 'runner.sock');
    writeFileSync(regular, 'not a socket');
    const occupied = await socketHost(t, { SVC_RUNNER_SOCKET: regular });
    await assert.rejects(occupied.host.start(), /SVC_RUNNER_SOCKET=.*exists and is not a socket/);
    assert.ok(lstatSync(regular).isFile(), 'the file is left alone');

    const relative = hostEnvWith(t, { SVC_RUNNER_SOCKET: 'runner.sock' }, ['blobs']);
    await assert.rejects(createHost({ env: relative.env, cwd: relative.dir, logger: createSilentLogger(), catalog: defaultCatalog }), /SVC_RUNNER_SOCKET='runner\.sock' must be an absolute path/);
  });

  it('replaces a stale socket file and leaves a live one to its owner', async (t) => {
    const holder = createHostEnv();
    onCleanup(t, () => holder.cleanup());
    mkdirSync(join(holder.dir, 'run'));
    const path = join(holder.dir, 'run', 'runner.sock');

    // A process that died without cleaning up leaves a socket file nobody listens on.
    const child = spawn(process.execPath, ['-e', `require('node:net').createServer().listen(${JSON.stringify(path)}, () => console.log('up'))`], { stdio: ['ignore', 'pipe', 'inherit'] });
    await new Promise<void>((resolve) => child.stdout.once('data', () => resolve()));
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGKILL');
    await exited;
    assert.ok(lstatSync(path).isSocket(), 'the stale socket file is there');
    const stale = await socketHost(t, { SVC_RUNNER_SOCKET: path });
    await stale.host.start();
    assert.equal((await overSocket(path, 'GET', '/_apis/connectionData')).status, 200, 'the host took the path over');
    await stale.host.stop();

    const live = createServer();
    await new Promise<void>((resolve) => live.listen(path, resolve));
    onCleanup(t, () => new Promise<void>((resolve) => live.close(() => resolve())));
    const second = await socketHost(t, { SVC_RUNNER_SOCKET: path });
    await assert.rejects(second.host.start(), /SVC_RUNNER_SOCKET=.* is in use/);
    assert.ok(lstatSync(path).isSocket(), "the other process's socket is left alone");
  });

  it('without SVC_RUNNER_SOCKET there is no socket server', async (t) => {
    const hostEnv = hostEnvWith(t, {}, ['blobs']);
    const host = await createHost({ env: hostEnv.env, cwd: hostEnv.dir, logger: createSilentLogger(), catalog: defaultCatalog });
    onCleanup(t, () => host.stop());
    assert.equal(host.runnerSocketApp, undefined);
    await host.start();
    assert.deepEqual((await host.app.inject({ method: 'GET', url: '/readyz' })).json(), { ready: true, reason: 'ready' });
  });
});

describe('draining both listeners', () => {
  it('finishes in-flight requests on TCP and on the socket, then removes the socket file', async (t) => {
    let release: () => void = () => undefined;
    const held = new Promise<void>((resolve) => (release = resolve));
    let arrived = 0;
    const slow = definePlugin({
      id: 'slow',
      apiVersion: 1,
      deps: {},
      init(_deps, env) {
        env.addRoutes({
          auth: 'public',
          surfaces: ['tcp', 'runner-socket'],
          register: (app) =>
            void app.get('/slow', async () => {
              arrived++;
              await held;
              return { done: true };
            }),
        });
      },
    });
    const hostEnv = hostEnvWith(t, {}, ['slow']);
    const socket = join(hostEnv.dir, 'runner.sock');
    hostEnv.env.SVC_RUNNER_SOCKET = socket;
    const host = await createHost({
      env: hostEnv.env,
      cwd: hostEnv.dir,
      logger: createSilentLogger(),
      catalog: { ...defaultCatalog, plugins: { ...defaultCatalog.plugins, slow: async () => ({ plugin: slow }) } },
    });
    onCleanup(t, () => host.stop());
    // Runs before the stop above (cleanups run in reverse), so a failed assertion cannot hang it.
    onCleanup(t, () => release());
    const baseUrl = await host.start();
    const viaSocket = overSocket(socket, 'GET', '/slow');
    const viaTcp = fetch(`${baseUrl}/slow`);
    while (arrived < 2) await new Promise((resolve) => setTimeout(resolve, 10));
    const stopped = host.stop();
    let stopDone = false;
    void stopped.then(() => (stopDone = true));
    await new Promise((resolve) => setTimeout(resolve, 100));
    assert.equal(stopDone, false, 'stop waits for the requests in flight');
    // Closing the listener stops accepting at once: new clients find no socket (ENOENT), while
    // the connections already accepted are served to the end.
    assert.equal(existsSync(socket), false, 'the socket file goes when the listener stops accepting');
    await assert.rejects(overSocket(socket, 'GET', '/slow'), /ENOENT|ECONNREFUSED/);
    release();
    assert.equal((await viaSocket).status, 200);
    assert.equal((await viaTcp).status, 200);
    await stopped;
    assert.equal(existsSync(socket), false);
  });
});

describe('route surfaces in the plugin contract', () => {
  const groupPlugin = (surfaces: unknown): PluginDefinition =>
    definePlugin({
      id: 'surfaced',
      apiVersion: 1,
      deps: {},
      init(_deps, env) {
        env.addRoutes({ auth: 'public', surfaces: surfaces as never, register: (app) => void app.get('/surfaced', async () => ({ ok: true })) });
      },
    });

  async function boot(t: TestContext, surfaces: unknown, env: Record<string, string> = {}): Promise<Host> {
    const hostEnv = hostEnvWith(t, env, ['surfaced']);
    const host = await createHost({
      env: hostEnv.env,
      cwd: hostEnv.dir,
      logger: createSilentLogger(),
      catalog: { ...defaultCatalog, plugins: { ...defaultCatalog.plugins, surfaced: async () => ({ plugin: groupPlugin(surfaces) }) } },
    });
    onCleanup(t, () => host.stop());
    return host;
  }

  it('refuses a group served nowhere or on an unknown surface, naming the plugin', async (t) => {
    await assert.rejects(boot(t, []), (error: unknown) => error instanceof PluginError && /plugin 'surfaced' adds a route group with no surfaces/.test(error.message));
    await assert.rejects(boot(t, ['tcp', 'udp']), (error: unknown) => error instanceof PluginError && /unknown surface\(s\) 'udp'/.test(error.message));
  });

  it('serves a socket-only group on the socket and not on TCP', async (t) => {
    const dir = createHostEnv();
    onCleanup(t, () => dir.cleanup());
    const socket = join(dir.dir, 'only.sock');
    const host = await boot(t, ['runner-socket'], { SVC_RUNNER_SOCKET: socket });
    await host.start();
    assert.equal((await overSocket(socket, 'GET', '/surfaced')).status, 200);
    assert.equal((await host.app.inject({ method: 'GET', url: '/surfaced' })).statusCode, 404);
  });
});
