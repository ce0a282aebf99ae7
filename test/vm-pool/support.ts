import { readFileSync } from 'node:fs';
import { createServer, type AddressInfo } from 'node:net';
/**
 * `svc serve` as a user starts it (SQLite, private data dir) with the built-in pool on, and the
 * calls a user makes: a workflow submitted as a local run (snapshot upload, then POST
 * /api/v1/runs), the run view, the pool's state and the registered runners.
 */
import type { TestContext } from 'node:test';
import { createHostEnv, TEST_SYSTEM_TOKEN, type HostEnv } from '../support/host-env.js';
import { onCleanup } from '../support/services.js';
import { spawnCli, type CliProcess } from '../support/spawn-cli.js';
import { tarOf } from '../snapshots/support.js';

/** What the pool needs and nothing more (the other plugins of plugins.toml are not under test here). */
export const POOL_PLUGINS = ['management-api', 'blobs', 'engine', 'local-runs', 'vm-pool', 'runner-protocol'];

export interface Served {
  readonly cli: CliProcess;
  readonly base: string;
  readonly hostEnv: HostEnv;
  /** SIGTERM, then the exit code. */
  stop(): Promise<number | null>;
}

export async function serve(t: TestContext, env: Record<string, string>, hostEnv: HostEnv = createHostEnv({ SVC_LOG_LEVEL: 'info', ...env })): Promise<Served> {
  if (hostEnv.env.SVC_PLUGINS === undefined) hostEnv.writePlugins(POOL_PLUGINS.map((id) => `[[plugin]]\nid = "${id}"\n`).join('\n'));
  const cli = spawnCli('svc', ['serve'], { ...hostEnv.env, ...env });
  const stop = async () => {
    if (cli.child.exitCode === null && cli.child.signalCode === null) cli.child.kill('SIGTERM');
    return (await cli.exited).code;
  };
  onCleanup(t, async () => void (await stop()));
  const exitedEarly = cli.exited.then(() => {
    throw new Error(`svc serve exited before it was ready:\n${cli.output()}`);
  });
  await Promise.race([cli.waitFor(/svc is ready/, 60_000), exitedEarly]);
  exitedEarly.catch(() => undefined);
  const listen = /"listen":"([^"]+)"/.exec(cli.output())?.[1];
  if (listen === undefined) throw new Error(`no listen address in:\n${cli.output()}`);
  return { cli, base: `http://${listen}`, hostEnv, stop };
}

const auth = { authorization: `Bearer ${TEST_SYSTEM_TOKEN}` };

export async function api<T>(base: string, path: string, init: RequestInit = {}): Promise<T> {
  const response = await fetch(`${base}${path}`, { ...init, headers: { ...auth, ...(init.headers as Record<string, string> | undefined) } });
  const text = await response.text();
  if (!response.ok) throw new Error(`${init.method ?? 'GET'} ${path}: ${response.status} ${text}`);
  return JSON.parse(text) as T;
}

export interface PoolView {
  readonly enabled: boolean;
  readonly reason: string;
  readonly backend?: string;
  readonly warnings: readonly { code: string; message: string }[];
  readonly guests?: readonly { guest_id: string; runner_id: number | null; phase: string; pid: number | null }[];
  readonly launched?: number;
  readonly jobs_taken?: number;
}

export const poolView = (base: string) => api<PoolView>(base, '/api/v1/pool');

export async function runnerNames(base: string): Promise<string[]> {
  const answer = await api<{ runners: { name: string }[] }>(base, '/api/v3/repos/acme/app/actions/runners', { headers: { authorization: `RemoteAuth ${TEST_SYSTEM_TOKEN}` } });
  return answer.runners.map((runner) => runner.name);
}

/** Registers an ephemeral runner of the built-in pool named `name` through the operator API (no guest runs it). */
export async function registerJitRunner(base: string, name: string): Promise<string> {
  const created = await api<{ runner: { name: string } }>(base, '/api/v1/runners/generate-jitconfig', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ name, labels: ['self-hosted', 'linux'] }),
  });
  return created.runner.name;
}

/** Polls `check` until it returns a value (not undefined); fails with `what` after `timeoutMs`. */
export async function eventually<T>(what: string, check: () => Promise<T | undefined>, timeoutMs = 120_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let last: unknown;
  for (;;) {
    try {
      const value = await check();
      if (value !== undefined) return value;
    } catch (error) {
      last = error;
    }
    if (Date.now() > deadline) throw new Error(`gave up waiting for ${what}${last === undefined ? '' : `: ${(last as Error).message}`}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

export interface JobView {
  readonly name: string;
  readonly status: string;
  readonly conclusion: string | null;
  readonly runner_name: string | null;
}

export interface RunView {
  readonly id: number;
  readonly status: string;
  readonly conclusion: string | null;
  readonly jobs: readonly JobView[];
}

/** Uploads `.github/workflows/ci.yml` as a snapshot and runs it (a local push to main). */
export async function submitWorkflow(base: string, workflow: string): Promise<number> {
  const archive = await tarOf([{ name: '.github/workflows/ci.yml', content: workflow }]);
  const snapshot = await api<{ sha: string }>(base, '/api/v1/snapshots?repository=acme/app', { method: 'POST', headers: { 'content-type': 'application/x-tar' }, body: archive });
  const submitted = await api<{ runs: { run_id: number }[] }>(base, '/api/v1/runs', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ repository: 'acme/app', snapshot: snapshot.sha, workflow: '.github/workflows/ci.yml' }),
  });
  const run = submitted.runs[0];
  if (run === undefined) throw new Error('the workflow made no run');
  return run.run_id;
}

export const runView = (base: string, runId: number) => api<RunView>(base, `/api/v1/runs/${runId}`);

/** A loopback port nothing listens on now: a server restarted on it keeps its address (SVC_LISTEN). */
export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/**
 * Whether a process is alive: it exists and is not a zombie (a guest orphaned by a killed server
 * is reaped by pid 1, which in some containers never reaps).
 */
export function alive(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return !/^[ZX]/.test(stat.slice(stat.lastIndexOf(')') + 2));
  } catch {
    return false;
  }
}
