// The other node of `npm run bench:nodes` (nodes.ts), a process of its own (forked, talking over
// IPC): its own PostgreSQL pool and notifier connections, an engine on the same schema. On each
// `wait` it long-polls for a job as a runner session on this node does, says when the poll is
// waiting, and reports the moment it was handed the job (epoch ms, sub-millisecond).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createPostgresNotifier, createPostgresStore } from '../backends/postgres/index.js';
import { createRedisNotifier } from '../backends/redis/index.js';
import { createEngine } from '../core/engine/index.js';
import { createSilentLogger, systemClock } from '../core/kernel/index.js';

export interface PeerData {
  readonly databaseUrl: string;
  readonly notifier: 'redis' | 'postgres';
  readonly redisUrl: string | undefined;
}

export type PeerMessage = { readonly type: 'ready' } | { readonly type: 'waiting' } | { readonly type: 'claimed'; readonly at: number; readonly jobId: number } | { readonly type: 'none' };

const now = () => performance.timeOrigin + performance.now();
const { send: sendToParent } = process;
if (sendToParent === undefined) throw new Error('nodes-peer.ts is forked by bench/nodes.ts (it needs the IPC channel)');
const data = JSON.parse(process.argv[2] ?? '{}') as PeerData;
const logger = createSilentLogger();
const dataDir = mkdtempSync(join(tmpdir(), 'svc-bench-peer-'));
const context = { logger, clock: systemClock, dataDir, url: data.databaseUrl };
const store = await createPostgresStore(context);
const notifier = data.notifier === 'redis' ? await createRedisNotifier({ ...context, url: data.redisUrl ?? '' }) : await createPostgresNotifier(context);
const engine = createEngine({ database: store.database, notifier, clock: systemClock, logger, nodeId: 'bench-b', serverUrl: () => 'http://127.0.0.1:9090' });
const identity = { runnerId: 'peer', runnerName: 'peer', labels: ['self-hosted'] };
const send = (message: PeerMessage) => void process.send?.(message);

/** The poll and completion under way, finished before the connections close. */
let current: Promise<unknown> = Promise.resolve();

process.on('message', (message: string) => {
  if (message === 'stop') {
    void (async () => {
      await current;
      await notifier.close();
      await store.database.close();
      rmSync(dataDir, { recursive: true, force: true });
      process.disconnect();
    })();
    return;
  }
  current = (async () => {
    const waiting = engine.waitForJob(identity, { timeoutMs: 5000, leaseMs: 60_000 });
    // The poll's first read and its subscription are done well within this.
    setTimeout(() => send({ type: 'waiting' }), 20);
    const assignment = await waiting;
    if (assignment === undefined) return send({ type: 'none' });
    send({ type: 'claimed', at: now(), jobId: assignment.job.id });
    await engine.completeJob(assignment.job.id, identity.runnerId, { outcome: 'success' });
  })();
});
send({ type: 'ready' });
