// `npm run bench:protocol`: the runner boundary of a real `svc serve` (the built bundle,
// dist/cli/svc.js, in a child process on 127.0.0.1, SQLite, a temp data dir, strict registration
// with the system token). Prints figures; asserts nothing.
//   1. Memory of idle long polls: N runners registered, N legacy sessions open, N `GET messages`
//      held from this process; the server's RSS (/proc/<pid>/status) before and with the polls.
//   2. Latency: one runner idle-polling; a one-job workflow submitted over HTTP (`POST
//      /api/v1/snapshots` once, `POST /api/v1/runs` per sample) until its job message reaches the
//      poll. Baseline in the same run: the in-process engine (queued -> handed to a waiting
//      `waitForJob`, as `bench/engine.ts` measures it).
// BENCH_POLLS=1000,5000 sets the poll counts (lowered with a note if the fd limit cannot hold them).
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import type { KeyObject } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { Agent, request, type ClientRequest } from 'node:http';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import tar from 'tar-stream';
import { createInProcessNotifier, createSqliteStore } from '../backends/sqlite/index.js';
import { createEngine, engineMigrations } from '../core/engine/index.js';
import { createSilentLogger, systemClock } from '../core/kernel/index.js';
import { job, runInput } from '../test/support/run-builder.js';
import { LISTENER_LOCATION, ScriptedListener } from '../test/runner-protocol/scripted-listener.js';
import { clientAssertion, LOCATION, newRunnerKey, publicKeyWire, ScriptedRunner } from '../test/runner-protocol/scripted-runner.js';
import { expandRoute, send, unwrap, vssUrl, type ResourceLocation } from '../test/runner-protocol/vss-client.js';

const root = new URL('..', import.meta.url).pathname;
const SYSTEM_TOKEN = 'bench-system-token-0123456789abcdef';
const LATENCY_SAMPLES = 200;
const LATENCY_LABEL = 'bench-latency';

const percentile = (values: readonly number[], p: number): number =>
  [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor((values.length * p) / 100))] ?? NaN;

function rssMb(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? NaN) / 1024;
}

function openFds(pid: number): number {
  try {
    return readdirSync(`/proc/${pid}/fd`).length;
  } catch {
    return NaN;
  }
}

function fdLimit(): number {
  const limits = readFileSync('/proc/self/limits', 'utf8');
  const soft = /Max open files\s+(\S+)/.exec(limits)?.[1];
  return soft === undefined || soft === 'unlimited' ? Infinity : Number(soft);
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address !== null ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

/** Runs `fn` over `items` with at most `width` in flight. */
async function pool<T, R>(items: readonly T[], width: number, fn: (item: T, index: number) => Promise<R>): Promise<R[]> {
  const results = new Array<R>(items.length);
  let next = 0;
  const worker = async () => {
    for (let i = next++; i < items.length; i = next++) results[i] = await fn(items[i] as T, i);
  };
  await Promise.all(Array.from({ length: Math.min(width, items.length) }, worker));
  return results;
}

// ---------------------------------------------------------------- the server under test

interface Served {
  readonly child: ChildProcess;
  readonly pid: number;
  readonly baseUrl: string;
  readonly dir: string;
}

const cleanups: (() => void | Promise<void>)[] = [];
async function cleanupAll(): Promise<void> {
  for (const cleanup of cleanups.splice(0).reverse()) {
    try {
      await cleanup();
    } catch (error) {
      console.error('bench:protocol cleanup failed:', error);
    }
  }
}
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => void cleanupAll().finally(() => process.exit(130)));
}

async function startServe(): Promise<Served> {
  const dir = mkdtempSync(join(tmpdir(), 'svc-bench-protocol-'));
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
  const plugins = join(dir, 'plugins.toml');
  writeFileSync(plugins, readFileSync(join(root, 'plugins.toml')));
  const port = await freePort();
  const baseUrl = `http://127.0.0.1:${port}`;
  const env = {
    PATH: process.env['PATH'] ?? '/usr/bin:/bin',
    HOME: dir,
    SVC_DATA_DIR: join(dir, 'data'),
    SVC_LISTEN: `127.0.0.1:${port}`,
    SVC_PUBLIC_URL: baseUrl,
    SVC_SYSTEM_TOKEN: SYSTEM_TOKEN,
    SVC_CREDENTIAL_STORE: 'memory',
    SVC_REGISTRATION_POLICY: 'strict',
    SVC_LOG_LEVEL: 'warn',
    SVC_PLUGINS: plugins,
    // The benchmark's runners are the only ones: no built-in pool guests.
    SVC_POOL_BACKEND: 'off',
  };
  const child = spawn(process.execPath, [join(root, 'dist/cli/svc.js'), 'serve'], { env, stdio: ['ignore', 'ignore', 'inherit'] });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  cleanups.push(async () => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 5000);
      await exited;
      clearTimeout(timer);
    }
  });
  if (child.pid === undefined) throw new Error('svc serve did not start');
  const deadline = Date.now() + 30_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`svc serve exited with ${child.exitCode}`);
    try {
      if ((await fetch(`${baseUrl}/readyz`)).ok) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) throw new Error('svc serve did not become ready in 30 s');
    await sleep(20);
  }
  return { child, pid: child.pid, baseUrl, dir };
}

// ---------------------------------------------------------------- many idle runners

interface IdleRunner {
  readonly agentId: number;
  readonly token: string;
  readonly sessionId: string;
  readonly messagesPath: string;
}

/**
 * Registers `count` runners the way `config.sh` does, minus the repeats a real runner makes per
 * process (one registration call, one connectionData, one pools lookup for all), with one RSA key
 * shared by all of them (2048-bit key generation would dominate the set-up); then each gets its
 * OAuth token and opens its legacy session.
 */
async function idleRunners(baseUrl: string, count: number, key: KeyObject): Promise<IdleRunner[]> {
  const runner = new ScriptedRunner({ url: `${baseUrl}/bench/idle`, token: SYSTEM_TOKEN, name: 'bench', clock: systemClock });
  const { tenantUrl, token: tenantToken } = await runner.registration('register');
  const locations = await runner.connectionData(tenantUrl);
  const location = (id: string): ResourceLocation => {
    const found = locations.get(id);
    if (!found) throw new Error(`connectionData lacks ${id}`);
    return found;
  };
  const call = (id: string, method: string, route: Record<string, string | number>, options: { query?: Record<string, string>; json?: unknown; bearer?: string }) => {
    const l = location(id);
    return send([], method, vssUrl(tenantUrl, expandRoute(l.routeTemplate, route, l.area, l.resource), options.query), {
      ...(options.bearer === undefined ? {} : { headers: { authorization: `Bearer ${options.bearer}` } }),
      ...(options.json === undefined ? {} : { json: options.json }),
    });
  };
  const pools = await call(LOCATION.pools, 'GET', {}, { query: { poolType: 'Automation' }, bearer: tenantToken });
  const poolId = unwrap<{ id: number; isInternal: boolean; isHosted: boolean }>(pools.body).find((p) => p.isInternal && !p.isHosted)?.id;
  if (poolId === undefined) throw new Error('no self-hosted pool');
  const publicKey = publicKeyWire(key);
  const messages = location(LISTENER_LOCATION.messages);
  const indexes = Array.from({ length: count }, (_, i) => i);
  return pool(indexes, 16, async (i) => {
    const created = await call(LOCATION.agents, 'POST', { poolId }, {
      bearer: tenantToken,
      json: {
        id: 0,
        name: `idle-${i}`,
        status: 0,
        provisioningState: null,
        createdOn: '0001-01-01T00:00:00',
        version: '2.337.0',
        osDescription: 'Ubuntu 24.04.1 LTS',
        ephemeral: false,
        disableUpdate: true,
        maxParallelism: 1,
        authorization: { publicKey },
        labels: [
          { id: 0, name: 'self-hosted', type: 'system' },
          { id: 0, name: 'Linux', type: 'system' },
          { id: 0, name: 'X64', type: 'system' },
        ],
      },
    });
    if (created.status !== 200) throw new Error(`agent idle-${i}: ${created.status} ${JSON.stringify(created.body)}`);
    const agent = created.body as { id: number; authorization: { clientId: string; authorizationUrl: string } };
    const assertion = await clientAssertion({ clientId: agent.authorization.clientId, audience: new URL(agent.authorization.authorizationUrl).href, key, nowMs: Date.now() });
    const tokenAnswer = await send([], 'POST', agent.authorization.authorizationUrl, {
      form: { grant_type: 'client_credentials', client_assertion_type: 'urn:ietf:params:oauth:client-assertion-type:jwt-bearer', client_assertion: assertion },
    });
    const token = (tokenAnswer.body as { access_token?: string } | undefined)?.access_token;
    if (tokenAnswer.status !== 200 || token === undefined) throw new Error(`token idle-${i}: ${tokenAnswer.status} ${JSON.stringify(tokenAnswer.body)}`);
    const session = await call(LISTENER_LOCATION.sessions, 'POST', { poolId }, {
      bearer: token,
      json: {
        sessionId: '00000000-0000-0000-0000-000000000000',
        ownerName: 'bench-host',
        agent: { id: agent.id, name: `idle-${i}`, version: '2.337.0', osDescription: 'Ubuntu 24.04.1 LTS', ephemeral: null, status: 0, provisioningState: null },
        useFipsEncryption: false,
      },
    });
    if (session.status !== 200) throw new Error(`session idle-${i}: ${session.status} ${JSON.stringify(session.body)}`);
    const sessionId = (session.body as { sessionId: string }).sessionId;
    const query = new URLSearchParams({ sessionId, status: 'Online', runnerVersion: '2.337.0', os: 'Linux', architecture: 'X64', disableUpdate: 'true' });
    const path = new URL(vssUrl(tenantUrl, expandRoute(messages.routeTemplate, { poolId }, messages.area, messages.resource))).pathname;
    return { agentId: agent.id, token, sessionId, messagesPath: `${path}?${query.toString()}` };
  });
}

interface HeldPolls {
  /** Polls answered before we let go (a held poll should not answer within the measurement). */
  early: number;
  failed: number;
  readonly requests: ClientRequest[];
}

/** Opens one `GET messages` per runner on its own keep-alive socket, in small waves (listen backlog). */
async function holdPolls(baseUrl: string, runners: readonly IdleRunner[], agent: Agent, held: HeldPolls): Promise<void> {
  const url = new URL(baseUrl);
  for (let start = 0; start < runners.length; start += 250) {
    for (const runner of runners.slice(start, start + 250)) {
      const req = request({
        host: url.hostname,
        port: url.port,
        path: runner.messagesPath,
        method: 'GET',
        agent,
        headers: { authorization: `Bearer ${runner.token}`, accept: 'application/json;api-version=6.0-preview.2', 'user-agent': 'GitHubActionsRunner-linux-x64/2.337.0 (bench)' },
      });
      req.on('response', (response) => {
        held.early++;
        response.resume();
      });
      req.on('error', () => {
        held.failed++;
      });
      req.end();
      held.requests.push(req);
    }
    await sleep(40);
  }
}

async function releasePolls(held: HeldPolls, agent: Agent): Promise<void> {
  for (const req of held.requests) {
    req.removeAllListeners('error');
    req.on('error', () => undefined);
    req.destroy();
  }
  agent.destroy();
  await sleep(500);
}

async function memoryBench(served: Served, counts: readonly number[]): Promise<void> {
  const max = Math.max(...counts);
  const key = newRunnerKey();
  const registering = performance.now();
  const runners = await idleRunners(served.baseUrl, max, key);
  const setupS = (performance.now() - registering) / 1000;
  await sleep(3000); // some of the registration burst's garbage is collected by then, not all
  const idleRss = rssMb(served.pid);
  const idleFds = openFds(served.pid);
  console.log(`  ${max} runners registered, token fetched, session opened in ${setupS.toFixed(1)} s; server RSS with no poll held: ${idleRss.toFixed(1)} MB (${idleFds} fds)`);
  const agent = new Agent({ keepAlive: true, maxSockets: Infinity, maxFreeSockets: Infinity });
  const held: HeldPolls = { early: 0, failed: 0, requests: [] };
  let open = 0;
  for (const count of [...counts].sort((a, b) => a - b)) {
    await holdPolls(served.baseUrl, runners.slice(open, count), agent, held);
    open = count;
    const parked = await waitForFds(served.pid, idleFds + count, 20_000);
    await sleep(1500); // let the server finish parking the last polls and the heap settle
    if (!parked) console.log(`  note: the server holds ${openFds(served.pid)} fds, not the ${idleFds + count} expected, after 20 s`);
    const rss = rssMb(served.pid);
    const perThousand = ((rss - idleRss) / count) * 1000;
    console.log(
      `  ${count} idle long polls held: server RSS ${rss.toFixed(1)} MB (${rss >= idleRss ? '+' : ''}${(rss - idleRss).toFixed(1)} MB, ${perThousand.toFixed(1)} MB per 1,000 polls; ` +
        `${openFds(served.pid)} server fds; answered early ${held.early}, failed ${held.failed}); goal: 5,000 polls under 300 MB`,
    );
  }
  console.log('  (RSS includes garbage V8 has not collected yet, so the per-1,000 deltas are rough; the absolute RSS is the figure for the goal)');
  await releasePolls(held, agent);
  await sleep(1000);
  console.log(`  polls released: server RSS ${rssMb(served.pid).toFixed(1)} MB, ${openFds(served.pid)} fds (${max} sessions stay open)`);
}

async function waitForFds(pid: number, target: number, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (openFds(pid) < target) {
    if (Date.now() > deadline) return false;
    await sleep(100);
  }
  return true;
}

// ---------------------------------------------------------------- latency over HTTP

async function snapshotTar(workflow: string): Promise<Buffer> {
  const pack = tar.pack();
  pack.entry({ name: '.github/workflows/bench.yml', mode: 0o644 }, workflow);
  pack.finalize();
  const chunks: Buffer[] = [];
  for await (const chunk of pack) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

interface LatencyClient {
  readonly baseUrl: string;
  readonly sha: string;
  readonly listener: ScriptedListener;
}

/** Uploads the one-job workflow once and configures the runner that takes its jobs. */
async function latencyClient(served: Served): Promise<LatencyClient> {
  const workflow = ['name: Bench', 'on: push', 'jobs:', '  ping:', `    runs-on: [self-hosted, ${LATENCY_LABEL}]`, '    steps:', '      - run: echo ping', ''].join('\n');
  const uploaded = await fetch(`${served.baseUrl}/api/v1/snapshots?repository=bench/latency`, {
    method: 'POST',
    headers: { authorization: `Bearer ${SYSTEM_TOKEN}`, 'content-type': 'application/x-tar' },
    body: await snapshotTar(workflow),
  });
  if (uploaded.status !== 201) throw new Error(`snapshot: ${uploaded.status} ${await uploaded.text()}`);
  const { sha } = (await uploaded.json()) as { sha: string };
  const runner = new ScriptedRunner({ url: `${served.baseUrl}/bench/latency`, token: SYSTEM_TOKEN, name: 'latency-01', clock: systemClock });
  const listener = new ScriptedListener(runner, await runner.configure({ labels: [LATENCY_LABEL], disableUpdate: true }));
  await listener.openSession();
  return { baseUrl: served.baseUrl, sha, listener };
}

async function latencyBench(client: LatencyClient, context: string): Promise<void> {
  const { listener } = client;
  const delivered: number[] = [];
  const submitted: number[] = [];
  const afterAnswer: number[] = [];
  for (let i = 0; i < LATENCY_SAMPLES + 5; i++) {
    const polling = listener.poll();
    await sleep(15); // the poll is parked in the server before the run is submitted
    const started = performance.now();
    const submit = fetch(`${client.baseUrl}/api/v1/runs`, {
      method: 'POST',
      headers: { authorization: `Bearer ${SYSTEM_TOKEN}`, 'content-type': 'application/json' },
      body: JSON.stringify({ repository: 'bench/latency', snapshot: client.sha, workflow: '.github/workflows/bench.yml' }),
    }).then(async (response) => {
      const at = performance.now();
      if (response.status !== 201) throw new Error(`submit: ${response.status} ${await response.text()}`);
      await response.arrayBuffer();
      return at;
    });
    const { message, result } = await polling;
    const deliveredAt = performance.now();
    const answeredAt = await submit;
    if (!message) throw new Error(`poll answered ${result.status} without a job`);
    if (i >= 5) {
      // the first few warm the JIT, the statement cache and the token
      delivered.push(deliveredAt - started);
      submitted.push(answeredAt - started);
      afterAnswer.push(deliveredAt - answeredAt);
    }
    const requestId = Number(message.body['requestId']);
    await listener.deleteMessage(message.messageId);
    await listener.renew(requestId);
    const finished = await listener.finish(requestId, 'succeeded');
    if (finished.status !== 200) throw new Error(`finish: ${finished.status} ${JSON.stringify(finished.body)}`);
  }
  const p = (values: readonly number[]) => `p50 ${percentile(values, 50).toFixed(2)} ms, p99 ${percentile(values, 99).toFixed(2)} ms`;
  console.log(`  ${context}, ${LATENCY_SAMPLES} jobs:`);
  console.log(`    POST /api/v1/runs sent -> job message in the held poll: ${p(delivered)}`);
  console.log(`    the POST's own round trip (snapshot read, plan, createRun):  ${p(submitted)}`);
  // The job is queued inside the POST, before its answer: delivery minus the answer is a lower
  // bound of queued -> delivered (negative when the message beat the answer to this process).
  console.log(`    job message after the POST's answer (lower bound of queued -> delivered): ${p(afterAnswer)}`);
}

/** The baseline: bench/engine.ts's figure 2, in this process (no HTTP, no protocol plugin). */
async function engineBaseline(): Promise<void> {
  const logger = createSilentLogger();
  const dataDir = mkdtempSync(join(tmpdir(), 'svc-bench-engine-'));
  cleanups.push(() => rmSync(dataDir, { recursive: true, force: true }));
  const store = await createSqliteStore({ logger, clock: systemClock, dataDir });
  try {
    const report = await store.migrator.migrate('engine', engineMigrations);
    if (report.error) throw report.error;
    const engine = createEngine({ database: store.database, notifier: createInProcessNotifier(logger), clock: systemClock, logger, nodeId: 'bench', serverUrl: () => 'http://127.0.0.1:9090' });
    const identity = { runnerId: 'r', runnerName: 'r', labels: ['self-hosted'] };
    const latencies: number[] = [];
    for (let i = 0; i < LATENCY_SAMPLES + 5; i++) {
      const waiting = engine.waitForJob(identity, { timeoutMs: 5000, leaseMs: 60_000 });
      await new Promise((resolve) => setImmediate(resolve));
      const queuedAt = performance.now();
      await engine.createRun(runInput([job('ping')], { workflow: { id: 'lat', path: 'ci.yml', name: 'CI' } }));
      const assignment = await waiting;
      if (i >= 5) latencies.push(performance.now() - queuedAt);
      if (!assignment) throw new Error('no job handed over');
      await engine.completeJob(assignment.job.id, 'r', { outcome: 'success' });
    }
    console.log(
      `  baseline, in-process engine: createRun -> handed to a waiting waitForJob (SQLite, ${LATENCY_SAMPLES} jobs): p50 ${percentile(latencies, 50).toFixed(2)} ms, p99 ${percentile(latencies, 99).toFixed(2)} ms`,
    );
  } finally {
    await store.database.close();
  }
}

// ---------------------------------------------------------------- main

async function main(): Promise<void> {
  const wanted = (process.env['BENCH_POLLS'] ?? '1000,5000').split(',').map(Number).filter((n) => Number.isInteger(n) && n > 0);
  // Each held poll is one fd here and one in the server (same limit: the child inherits it);
  // keep headroom for the registration sockets, SQLite and the runtime.
  const limit = fdLimit();
  const fits = Math.max(0, Math.floor(limit - 500));
  const counts = wanted.map((n) => Math.min(n, fits)).filter((n, i, all) => n > 0 && all.indexOf(n) === i);
  console.log(`bench:protocol (svc serve from dist/cli/svc.js in a child process, 127.0.0.1, SQLite, legacy flow; node ${process.version}; fd limit ${limit})`);
  if (counts.join() !== wanted.join()) console.log(`  note: the fd limit (${limit}) cannot hold ${wanted.join(', ')} polls; measuring ${counts.join(', ')} instead (raise ulimit -n)`);
  const build = spawnSync(process.execPath, [join(root, 'scripts/build.mjs')], { stdio: ['ignore', 'ignore', 'inherit'] });
  if (build.status !== 0) throw new Error('node scripts/build.mjs failed');

  const served = await startServe();
  await sleep(1000);
  console.log(`  server (pid ${served.pid}, this process ${process.pid}) idle after start: RSS ${rssMb(served.pid).toFixed(1)} MB`);
  console.log('job queued -> delivered to an idle long-polling runner (legacy flow, one runner):');
  const client = await latencyClient(served);
  await latencyBench(client, 'fresh server');
  console.log('memory of idle long polls (legacy GET messages, held about 50 s by the server):');
  await memoryBench(served, counts);
  console.log('job queued -> delivered, again:');
  await latencyBench(client, `same server, ${Math.max(...counts)} idle sessions open, their polls released`);
  await engineBaseline();
}

try {
  await main();
} catch (error) {
  console.error('bench:protocol failed:', error);
  process.exitCode = 1;
} finally {
  await cleanupAll();
}
