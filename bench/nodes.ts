// `npm run bench:nodes`: several nodes on one PostgreSQL schema (issue 16).
//
//   1. Queued -> started when the only idle runner is on the other node: node A (this thread)
//      creates a one-job run while node B (a process of its own, nodes-peer.ts: its own PostgreSQL
//      pool and notifier connections) long-polls for it; the time from before A's
//      createRun to B holding the job. Baseline in the same run: the same with the waiting poll
//      on node A itself. Per notifier: Redis pub/sub (when a Redis URL is given) and PostgreSQL
//      LISTEN/NOTIFY. Goal: p99 <= 30 ms.
//   2. Time to recover a dead node's jobs: two real nodes behind nginx (test/multi-node), kill -9
//      of the node whose guest runs a job (and of the guest), until the other node shows the job
//      no longer in progress. Printed as not measured where nginx is missing. Builds the CLI bundle for the nodes first.
//
// Blob throughput of the shared stores against the local filesystem is `npm run bench:blobs`.
// PostgreSQL: SVC_BENCH_POSTGRES_URL, else SVC_TEST_POSTGRES_URL, else SVC_DATABASE_URL (a schema
// of its own, dropped afterwards); Redis: SVC_BENCH_REDIS_URL, else SVC_TEST_REDIS_URL, else
// SVC_REDIS_URL. BENCH_NODES_JOBS (default 200) samples per figure. Prints figures; asserts nothing.
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fork, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { createPostgresNotifier, createPostgresStore } from '../backends/postgres/index.js';
import { createRedisNotifier } from '../backends/redis/index.js';
import { createEngine, engineMigrations } from '../core/engine/index.js';
import { createSilentLogger, systemClock } from '../core/kernel/index.js';
import { job, runInput } from '../test/support/run-builder.js';
import { dropPostgresSchema } from '../test/support/services.js';
import type { RunView } from '../plugins/engine/run-view.js';
import { gitRepository, svcRun, useBundle } from '../test/local-runs/run-cli-harness.js';
import { startCluster } from '../test/multi-node/cluster.js';
import { findNginx } from '../test/multi-node/nginx-proxy.js';
import { isolateGitConfig } from '../test/snapshots/support.js';
import { api } from '../test/vm-pool/support.js';
import type { PeerData, PeerMessage } from './nodes-peer.js';

/** A job on node A's guest that runs until it is stopped. */
const SLOW_ON_A = `name: Slow
on: push
jobs:
  wait:
    runs-on: [self-hosted, node-a]
    steps:
      - run: echo started && sleep 600
`;

const env = process.env;
const postgresUrl = env['SVC_BENCH_POSTGRES_URL'] ?? env['SVC_TEST_POSTGRES_URL'] ?? env['SVC_DATABASE_URL'];
const redisUrl = env['SVC_BENCH_REDIS_URL'] ?? env['SVC_TEST_REDIS_URL'] ?? env['SVC_REDIS_URL'];
const JOBS = Number(env['BENCH_NODES_JOBS'] ?? 200);
if (postgresUrl === undefined || postgresUrl === '') {
  console.error('bench:nodes needs PostgreSQL: set SVC_BENCH_POSTGRES_URL (or SVC_TEST_POSTGRES_URL), e.g. postgres://postgres@127.0.0.1:5432/test');
  process.exit(1);
}

const logger = createSilentLogger();
const now = () => performance.timeOrigin + performance.now();
const percentile = (values: number[], p: number) => [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor((values.length * p) / 100))] ?? NaN;
const figures = (values: number[]) => `p50 ${percentile(values, 50).toFixed(1)} ms, p99 ${percentile(values, 99).toFixed(1)} ms, max ${Math.max(...values).toFixed(1)} ms`;

/** A message of the given type from the peer; rejects when the peer exits first. */
function next(worker: ChildProcess, type: PeerMessage['type']): Promise<PeerMessage> {
  return new Promise((resolve, reject) => {
    const done = () => {
      worker.off('message', onMessage);
      worker.off('exit', onExit);
    };
    const onMessage = (message: PeerMessage) => {
      if (message.type !== type && message.type !== 'none') return;
      done();
      if (message.type === 'none') reject(new Error('the other node was handed no job within 5 s'));
      else resolve(message);
    };
    const onExit = (code: number | null) => {
      done();
      reject(new Error(`the other node exited (${code}) before its '${type}'`));
    };
    worker.on('message', onMessage);
    worker.on('exit', onExit);
  });
}

async function handOff(notifierKind: 'redis' | 'postgres'): Promise<void> {
  const schema = `svc_bench_nodes_${randomBytes(4).toString('hex')}`;
  const url = new URL(postgresUrl ?? '');
  url.searchParams.set('schema', schema);
  const databaseUrl = url.toString();
  let notifierUrl: string | undefined;
  if (notifierKind === 'redis') {
    const redis = new URL(redisUrl ?? '');
    redis.searchParams.set('prefix', `svc-bench-nodes:${randomBytes(4).toString('hex')}:`);
    notifierUrl = redis.toString();
  }
  const dataDir = mkdtempSync(join(tmpdir(), 'svc-bench-nodes-'));
  const context = { logger, clock: systemClock, dataDir, url: databaseUrl };
  const store = await createPostgresStore(context);
  const report = await store.migrator.migrate('engine', engineMigrations);
  if (report.error) throw report.error;
  const notifier = notifierKind === 'redis' ? await createRedisNotifier({ ...context, url: notifierUrl ?? '' }) : await createPostgresNotifier(context);
  const engine = createEngine({ database: store.database, notifier, clock: systemClock, logger, nodeId: 'bench-a', serverUrl: () => 'http://127.0.0.1:9090' });
  const peerData: PeerData = { databaseUrl, notifier: notifierKind, redisUrl: notifierUrl };
  const peer = fork(fileURLToPath(new URL('./nodes-peer.ts', import.meta.url)), [JSON.stringify(peerData)], { execArgv: ['--import', 'tsx'] });
  try {
    await next(peer, 'ready');
    const workflow = { id: 'nodes', path: 'ci.yml', name: 'CI' };
    const identity = { runnerId: 'local', runnerName: 'local', labels: ['self-hosted'] };
    const same: number[] = [];
    const other: number[] = [];
    // Warm both nodes' pools and subscriptions before measuring.
    for (let i = 0; i < JOBS + 10; i++) {
      // Same node: the waiting poll on A.
      const waiting = engine.waitForJob(identity, { timeoutMs: 5000, leaseMs: 60_000 });
      await new Promise((resolve) => setTimeout(resolve, 20));
      let queuedAt = now();
      await engine.createRun(runInput([job('ping')], { workflow }));
      const assignment = await waiting;
      if (assignment === undefined) throw new Error('no job handed over on the same node');
      if (i >= 10) same.push(now() - queuedAt);
      await engine.completeJob(assignment.job.id, identity.runnerId, { outcome: 'success' });

      // Other node: the waiting poll on B.
      peer.send('wait');
      await next(peer, 'waiting');
      queuedAt = now();
      const claimed = next(peer, 'claimed');
      await engine.createRun(runInput([job('ping')], { workflow }));
      const message = await claimed;
      if (message.type === 'claimed' && i >= 10) other.push(message.at - queuedAt);
    }
    console.log(
      `bench:nodes queued -> started, ${notifierKind === 'redis' ? 'Redis pub/sub' : 'PostgreSQL LISTEN/NOTIFY'} notifier, ${JOBS} jobs (includes the createRun commit):\n` +
        `  the only idle runner on the other node: ${figures(other)} (goal p99 <= 30 ms)\n` +
        `  baseline, the runner on the same node:  ${figures(same)}`,
    );
  } finally {
    if (peer.exitCode === null && peer.signalCode === null) {
      const exited = new Promise((resolve) => peer.once('exit', resolve));
      peer.send('stop');
      await exited;
    }
    await notifier.close();
    await store.database.close();
    rmSync(dataDir, { recursive: true, force: true });
    await dropPostgresSchema(postgresUrl ?? '', schema);
  }
}

if (redisUrl !== undefined && redisUrl !== '') await handOff('redis');
else console.log('bench:nodes: no Redis URL (SVC_BENCH_REDIS_URL or SVC_TEST_REDIS_URL): the Redis notifier is not measured');
await handOff('postgres');
await recovery();

/**
 * 2. Two real nodes behind nginx (test/multi-node/cluster.ts); a job runs on node A's guest; node A
 * and everything under it are killed (the machine dies); the time until node B's view of the job
 * is no longer in progress.
 */
async function recovery(): Promise<void> {
  const label = "bench:nodes time to recover a dead node's jobs";
  const nginx = findNginx();
  if (nginx === undefined) return console.log(`${label}: not measured: nginx is not installed`);
  isolateGitConfig();
  const removeBundle = useBundle('bench-nodes');
  const notifier = redisUrl !== undefined && redisUrl !== '' ? 'redis' : 'postgres';
  const cluster = await startCluster({ nginx, postgresUrl: postgresUrl ?? '', ...(redisUrl ? { redisUrl } : {}), notifier });
  const repo = await gitRepository({ '.github/workflows/slow.yml': SLOW_ON_A });
  try {
    const [a, b] = cluster.nodes;
    const run = svcRun([], b.cliEnv, repo.dir);
    await run.waitFor(/^svc run: run \d+ of /m);
    const runId = Number(/^svc run: run (\d+) of /m.exec(run.stderr())?.[1]);
    await run.waitFor(/^wait \| started$/m);
    const killedAt = now();
    await a.crash();
    const jobOf = async () => (await api<RunView>(b.base, `/api/v1/runs/${runId}`)).jobs[0];
    let job = await jobOf();
    while (job?.status === 'in_progress' && now() - killedAt < 300_000) {
      await new Promise((resolve) => setTimeout(resolve, 250));
      job = await jobOf();
    }
    const seconds = ((now() - killedAt) / 1000).toFixed(1);
    run.child.kill('SIGKILL');
    console.log(
      job?.status === 'in_progress'
        ? `${label}: still in progress ${seconds} s after the kill (gave up)`
        : `${label}: ${seconds} s from kill -9 of node A (and its guest) to node B's view of the job ${job?.status}/${job?.conclusion ?? '-'} (reason: ${job?.reason ?? 'none'}; goal about a minute, the suite allows 90 s)`,
    );
  } finally {
    await repo.remove();
    await cluster.stop();
    removeBundle();
  }
}
