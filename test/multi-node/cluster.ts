/**
 * Two `svc serve` nodes as a team runs them: separate data dirs, one fresh PostgreSQL schema (the
 * store and, by default, the blobs), one notifier (Redis pub/sub, or PostgreSQL LISTEN/NOTIFY),
 * each with its own built-in pool, behind one real nginx (nginx-proxy.ts, round-robin, not
 * sticky). `SVC_PUBLIC_URL` of both is the proxy, so the runners in the guests, their steps'
 * toolkit clients and git all go through it and land on either node request by request.
 *
 * Guests run on the process backend: a namespace guest reaches only its own node's runner socket
 * (its forwarder), so its requests would never cross nodes; a process guest uses the public URL
 * itself, which is what this suite is about. Each node's guests carry a label of their own
 * (`node-a`, `node-b`), so a workflow chooses which node's guest takes each job.
 */
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { createServer, type AddressInfo } from 'node:net';
import { join } from 'node:path';
import { spawnTs, stopProcess, type Spawned } from '../local-runs/run-cli-harness.js';
import { createHostEnv, TEST_SYSTEM_TOKEN, type HostEnv } from '../support/host-env.js';
import { deleteRedisPrefix, dropPostgresSchema, uniqueName } from '../support/services.js';
import { startNginx, type NginxProxy } from './nginx-proxy.js';

export type NotifierKind = 'redis' | 'postgres';

export const NODE_PLUGINS = ['management-api', 'blobs', 'engine', 'local-runs', 'vm-pool', 'runner-protocol', 'runtime-services', 'checkout-relay'];

export interface ClusterNode {
  readonly name: 'a' | 'b';
  /** The node's own address (not through the proxy). */
  readonly base: string;
  readonly hostEnv: HostEnv;
  /** `svc` CLI environment talking to this node directly. */
  readonly cliEnv: Record<string, string>;
  serve(): Spawned;
  /**
   * The machine dies: `kill -9` of the node's `svc serve` and of every process under it (its
   * guests and their jobs, which a process-backend guest would otherwise outlive).
   */
  crash(): Promise<void>;
}

export interface Cluster {
  readonly proxy: NginxProxy;
  readonly nodes: readonly [ClusterNode, ClusterNode];
  /** `svc` CLI environment talking through the proxy. */
  readonly cliEnv: Record<string, string>;
  /** Everything both nodes printed, for assertion messages. */
  logs(): string;
  stop(): Promise<void>;
}

export interface ClusterOptions {
  readonly nginx: string;
  readonly postgresUrl: string;
  /** Required with the Redis notifier. */
  readonly redisUrl?: string;
  readonly notifier: NotifierKind;
  /** Idle guests each node keeps (default 1). */
  readonly warm?: number;
  /** More server variables for both nodes. */
  readonly env?: Readonly<Record<string, string>>;
}

export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((done) => server.close(() => done()));
  return port;
}

/** Every process under `pid` (from /proc: Linux only, as the pool's guests are). */
function descendants(pid: number): number[] {
  const children = new Map<number, number[]>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      // The parent pid is the 4th field, after the command name in parentheses (which may hold spaces).
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const parent = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      children.set(parent, [...(children.get(parent) ?? []), Number(entry)]);
    } catch {
      // Exited while listed.
    }
  }
  const found: number[] = [];
  const visit = (parent: number) => {
    for (const child of children.get(parent) ?? []) {
      found.push(child);
      visit(child);
    }
  };
  visit(pid);
  return found;
}



/** Starts both nodes and the proxy; resolves once each node has a guest waiting for a job. */
export async function startCluster(options: ClusterOptions): Promise<Cluster> {
  const schema = uniqueName('svc_mn_');
  const databaseUrl = new URL(options.postgresUrl);
  databaseUrl.searchParams.set('schema', schema);
  const redisPrefix = `${uniqueName('svc-mn:')}:`;
  let redisUrl: string | undefined;
  if (options.notifier === 'redis') {
    assert.ok(options.redisUrl, 'the Redis notifier needs a Redis URL');
    const url = new URL(options.redisUrl);
    url.searchParams.set('prefix', redisPrefix);
    redisUrl = url.toString();
  }
  const [proxyPort, portA, portB] = [await freePort(), await freePort(), await freePort()];
  const publicUrl = `http://127.0.0.1:${proxyPort}`;
  const cleanups: (() => Promise<void> | void)[] = [];
  const stop = async () => {
    for (const cleanup of cleanups.reverse()) await cleanup();
  };
  cleanups.push(() => dropPostgresSchema(options.postgresUrl, schema));
  if (redisUrl !== undefined && options.redisUrl !== undefined) {
    const base = options.redisUrl;
    cleanups.push(() => deleteRedisPrefix(base, redisPrefix));
  }

  // The cluster key sealing the shared signing keys in the database: the first node makes it.
  const keyDir = mkdtempSync(join(tmpdir(), 'svc-mn-key-'));
  cleanups.push(() => rmSync(keyDir, { recursive: true, force: true }));
  const clusterKeyFile = join(keyDir, 'cluster.key');
  const startNode = (name: 'a' | 'b', port: number): ClusterNode => {
    const hostEnv = createHostEnv({
      SVC_CLUSTER_KEY_FILE: clusterKeyFile,
      // Two nodes on one host: each its own node id (SVC_NODE_ID defaults to the host name).
      SVC_NODE_ID: `node-${name}`,
      SVC_LISTEN: `127.0.0.1:${port}`,
      SVC_PUBLIC_URL: publicUrl,
      SVC_DATABASE_URL: databaseUrl.toString(),
      ...(redisUrl !== undefined ? { SVC_REDIS_URL: redisUrl } : {}),
      SVC_LOG_LEVEL: 'info',
      SVC_POOL_BACKEND: 'process',
      SVC_POOL_WARM: String(options.warm ?? 1),
      SVC_POOL_MAX: '2',
      SVC_POOL_LABELS: `self-hosted,linux,ubuntu-latest,node-${name}`,
      SVC_POOL_STOP_GRACE_SECONDS: '5',
      ...options.env,
    });
    const plugins = hostEnv.writePlugins(NODE_PLUGINS.map((id) => `[[plugin]]\nid = "${id}"\n`).join('\n'));
    const serve = spawnTs('cli/svc.ts', ['serve'], hostEnv.env, hostEnv.dir);
    cleanups.push(async () => {
      await stopProcess(serve);
      hostEnv.cleanup();
    });
    const base = `http://127.0.0.1:${port}`;
    return {
      name,
      base,
      hostEnv,
      cliEnv: { HOME: hostEnv.dir, SVC_URL: base, SVC_TOKEN: TEST_SYSTEM_TOKEN, SVC_PLUGINS: plugins },
      serve: () => serve,
      async crash() {
        const pid = serve.child.pid;
        assert.ok(pid !== undefined, `node ${name} has no process`);
        const tree = [pid, ...descendants(pid)];
        for (const member of tree) {
          try {
            process.kill(member, 'SIGKILL');
          } catch {
            // Gone already.
          }
        }
        await serve.exited;
      },
    };
  };

  try {
    // A first: it makes the cluster key B then reads.
    const a = startNode('a', portA);
    await a.serve().waitFor(/svc is ready/, 60_000);
    assert.ok(existsSync(clusterKeyFile), `node a made no cluster key at SVC_CLUSTER_KEY_FILE:\n${a.serve().stdout()}${a.serve().stderr()}`);
    const b = startNode('b', portB);
    await Promise.all([a.serve().waitFor(/svc is ready/, 60_000), b.serve().waitFor(/svc is ready/, 60_000)]);
    const proxy = await startNginx(options.nginx, proxyPort, [`127.0.0.1:${portA}`, `127.0.0.1:${portB}`]);
    cleanups.push(() => proxy.stop());
    await Promise.all([a.serve().waitFor(/guest is waiting for a job/, 120_000), b.serve().waitFor(/guest is waiting for a job/, 120_000)]);
    const nodes = [a, b] as const;
    return {
      proxy,
      nodes,
      cliEnv: { ...a.cliEnv, SVC_URL: publicUrl },
      logs: () => nodes.map((node) => `--- node ${node.name}\n${node.serve().stdout()}${node.serve().stderr()}`).join('\n'),
      stop,
    };
  } catch (error) {
    await stop();
    throw error;
  }
}
