// `npm run bench:runner [-- --rss-only]`: svc-runner against a real `svc serve`, both the
// production bundles as users run them (scripts/build.mjs, esbuild), built afresh from the
// sources into `dist-test-bench-<pid>/` at the package root (so node_modules and the package root
// resolve as from dist/, which is left alone) and removed at the end; SQLite, a temp data dir.
// Prints figures; asserts nothing.
//   1. A trivial job (three `run:` steps: echo, true, date): wall time from its run submitted
//      (`POST /api/v1/runs`, the job queued) to the job completed in the run view, with a
//      `svc-runner run --once` already listening; median of 5. Baseline in the same run: the same
//      three commands, each a script run by `bash --noprofile --norc -eo pipefail` (the runner's
//      bash command line), one after the other. Printed as a ratio.
//   2. Listener idle RSS: a configured `svc-runner run` idle-polling; VmRSS of the listener
//      process from /proc/<pid>/status after 5 s and after 15 s (V8 shrinks its young generation
//      once the process has been idle for some seconds: the settled figure is what an idle
//      listener holds), against the goal (<= 50 MB). Baseline: the floor of any Node process on
//      this machine, `node -e 'setInterval(() => {}, 1e9)'`, sampled the same way.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import tar from 'tar-stream';

const root = new URL('..', import.meta.url).pathname;
const DIST = join(root, `dist-test-bench-${process.pid}`);
const SVC = join(DIST, 'cli/svc.js');
const SVC_RUNNER = join(DIST, 'cli/svc-runner.js');
const RSS_ONLY = process.argv.includes('--rss-only');
const SYSTEM_TOKEN = 'bench-system-token-0123456789abcdef';
const REPOSITORY = 'bench/runner';
const SAMPLES = 5;
/** When idle RSS is sampled, from "Listening for Jobs" (or the bare process's start). */
const IDLE_SAMPLES_MS = [5_000, 15_000] as const;
const RSS_GOAL_MB = 50;
const COMMANDS = ['echo hello', 'true', 'date'] as const;
const WORKFLOW = ['name: trivial', 'on: push', 'jobs:', '  trivial:', '    runs-on: [self-hosted]', '    steps:', ...COMMANDS.map((c) => `      - run: ${c}`), ''].join('\n');

const median = (values: readonly number[]): number => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? NaN;

function rssMb(pid: number): number {
  return Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? NaN) / 1024;
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

const cleanups: (() => void | Promise<void>)[] = [];
async function cleanupAll(): Promise<void> {
  for (const cleanup of cleanups.splice(0).reverse()) {
    try {
      await cleanup();
    } catch (error) {
      console.error('bench:runner cleanup failed:', error);
    }
  }
}
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, () => void cleanupAll().finally(() => process.exit(130)));

function tempDir(prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

interface Child {
  readonly child: ChildProcess;
  output(): string;
  waitFor(pattern: RegExp, timeoutMs: number): Promise<void>;
  readonly exited: Promise<number | null>;
}

/** A child process stopped (SIGTERM, then SIGKILL) at the end of the bench. */
function start(args: readonly string[], env: Record<string, string>): Child {
  const child = spawn(process.execPath, args, { env: { PATH: process.env['PATH'] ?? '/usr/bin:/bin', ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  cleanups.push(async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    child.kill('SIGTERM');
    const timer = setTimeout(() => child.kill('SIGKILL'), 5000);
    await exited;
    clearTimeout(timer);
  });
  return {
    child,
    output: () => output,
    exited,
    async waitFor(pattern, timeoutMs) {
      const until = Date.now() + timeoutMs;
      while (!pattern.test(output)) {
        if (child.exitCode !== null || Date.now() > until) throw new Error(`waiting for ${pattern}; output:\n${output}`);
        await sleep(10);
      }
    },
  };
}

interface Served {
  readonly baseUrl: string;
  readonly snapshot: string;
}

async function startServe(): Promise<Served> {
  const dir = tempDir('svc-bench-runner-');
  const plugins = join(dir, 'plugins.toml');
  writeFileSync(plugins, readFileSync(join(root, 'plugins.toml')));
  const port = await freePort();
  const baseUrl = `http://127.0.0.1:${port}`;
  start([SVC, 'serve'], {
    HOME: dir,
    SVC_DATA_DIR: join(dir, 'data'),
    SVC_LISTEN: `127.0.0.1:${port}`,
    SVC_PUBLIC_URL: baseUrl,
    SVC_SYSTEM_TOKEN: SYSTEM_TOKEN,
    SVC_CREDENTIAL_STORE: 'memory',
    SVC_LOG_LEVEL: 'warn',
    SVC_PLUGINS: plugins,
    // The benchmark's runner is the only one: no built-in pool guests.
    SVC_POOL_BACKEND: 'off',
  });
  const deadline = Date.now() + 30_000;
  for (;;) {
    try {
      if ((await fetch(`${baseUrl}/readyz`)).ok) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) throw new Error('svc serve did not become ready in 30 s');
    await sleep(20);
  }
  const pack = tar.pack();
  pack.entry({ name: '.github/workflows/trivial.yml', mode: 0o644 }, WORKFLOW);
  pack.finalize();
  const chunks: Buffer[] = [];
  for await (const chunk of pack) chunks.push(chunk as Buffer);
  const uploaded = await fetch(`${baseUrl}/api/v1/snapshots?repository=${REPOSITORY}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${SYSTEM_TOKEN}`, 'content-type': 'application/x-tar' },
    body: Buffer.concat(chunks),
  });
  if (uploaded.status !== 201) throw new Error(`snapshot upload: ${uploaded.status} ${await uploaded.text()}`);
  const { sha } = (await uploaded.json()) as { sha: string };
  return { baseUrl, snapshot: sha };
}

async function configureRunner(served: Served, name: string): Promise<string> {
  const runnerRoot = tempDir('svc-bench-runner-root-');
  const configure = start([SVC_RUNNER, 'configure', '--url', `${served.baseUrl}/${REPOSITORY}`, '--token', SYSTEM_TOKEN, '--name', name, '--no-externals', '--runner-root', runnerRoot], { HOME: runnerRoot });
  if ((await configure.exited) !== 0) throw new Error(`svc-runner configure failed:\n${configure.output()}`);
  return runnerRoot;
}

async function submitRun(served: Served): Promise<number> {
  const response = await fetch(`${served.baseUrl}/api/v1/runs`, {
    method: 'POST',
    headers: { authorization: `Bearer ${SYSTEM_TOKEN}`, 'content-type': 'application/json' },
    body: JSON.stringify({ repository: REPOSITORY, snapshot: served.snapshot, workflow: '.github/workflows/trivial.yml' }),
  });
  const body = (await response.json()) as { runs?: { run_id: number }[] };
  const id = body.runs?.[0]?.run_id;
  if (response.status !== 201 || id === undefined) throw new Error(`POST /api/v1/runs: ${response.status} ${JSON.stringify(body)}`);
  return id;
}

async function jobConclusion(served: Served, runId: number): Promise<string> {
  for (;;) {
    const response = await fetch(`${served.baseUrl}/api/v1/runs/${runId}`, { headers: { authorization: `Bearer ${SYSTEM_TOKEN}` } });
    const view = (await response.json()) as { jobs: { status: string; conclusion: string | null }[] };
    const job = view.jobs[0];
    if (job !== undefined && ['success', 'failure', 'cancelled', 'skipped'].includes(job.status)) return job.conclusion ?? job.status;
    await sleep(10);
  }
}

/** One sample: a `run --once` listening, the run submitted, the job awaited; milliseconds. */
async function runnerSample(served: Served, runnerRoot: string): Promise<number> {
  const listener = start([SVC_RUNNER, 'run', '--once', '--runner-root', runnerRoot], { HOME: runnerRoot });
  await listener.waitFor(/Listening for Jobs/, 30_000);
  const started = performance.now();
  const runId = await submitRun(served);
  const conclusion = await jobConclusion(served, runId);
  const elapsed = performance.now() - started;
  if (conclusion !== 'success') throw new Error(`the trivial job ended ${conclusion}:\n${listener.output()}`);
  await listener.exited;
  return elapsed;
}

function bashSample(dir: string): number {
  const started = performance.now();
  COMMANDS.forEach((command, i) => {
    const script = join(dir, `step-${i}.sh`);
    writeFileSync(script, `${command}\n`);
    const result = spawnSync('bash', ['--noprofile', '--norc', '-eo', 'pipefail', script], { stdio: 'ignore' });
    if (result.status !== 0) throw new Error(`bash ${command} exited ${String(result.status)}`);
  });
  return performance.now() - started;
}

/** The production bundles, built from the current sources (never into dist/, which others may be running). */
function buildBundles(): void {
  cleanups.push(() => rmSync(DIST, { recursive: true, force: true }));
  const build = spawnSync(process.execPath, [join(root, 'scripts/build.mjs'), DIST], { cwd: root, stdio: 'inherit' });
  if (build.status !== 0 || !existsSync(SVC) || !existsSync(SVC_RUNNER)) throw new Error(`building the bundles into ${DIST} failed`);
}

/** VmRSS at each of IDLE_SAMPLES_MS after `ready`, in MB. */
async function idleSamples(pid: number, ready: number): Promise<number[]> {
  const samples: number[] = [];
  for (const at of IDLE_SAMPLES_MS) {
    await sleep(Math.max(0, ready + at - performance.now()));
    samples.push(rssMb(pid));
  }
  return samples;
}

/** A bare Node process idle as long as the listener: what any Node program holds. */
async function nodeFloorMb(): Promise<number[]> {
  const bare = start(['-e', 'setInterval(() => {}, 1e9); console.log("idle")'], {});
  await bare.waitFor(/idle/, 10_000);
  const pid = bare.child.pid;
  if (pid === undefined) throw new Error('the bare node process has no pid');
  const samples = await idleSamples(pid, performance.now());
  bare.child.kill('SIGTERM');
  await bare.exited;
  return samples;
}

async function trivialJob(served: Served): Promise<void> {
  console.log(`1. trivial job (${COMMANDS.join(', ')}), submitted -> job completed, median of ${SAMPLES}`);
  const runnerRoot = await configureRunner(served, 'bench-trivial');
  const runner: number[] = [];
  for (let i = 0; i < SAMPLES; i += 1) runner.push(await runnerSample(served, runnerRoot));
  const scripts = tempDir('svc-bench-bash-');
  const bash: number[] = [];
  for (let i = 0; i < SAMPLES; i += 1) bash.push(bashSample(scripts));
  const fmt = (values: readonly number[]) => values.map((v) => v.toFixed(0)).join(', ');
  console.log(`   svc serve + svc-runner run --once: ${median(runner).toFixed(0)} ms (samples ${fmt(runner)})`);
  console.log(`   bash -eo pipefail scripts:         ${median(bash).toFixed(1)} ms (samples ${bash.map((v) => v.toFixed(1)).join(', ')})`);
  console.log(`   ratio: ${(median(runner) / median(bash)).toFixed(1)}x`);
}

async function idleRss(served: Served): Promise<void> {
  const at = IDLE_SAMPLES_MS.map((ms) => `${ms / 1000} s`).join(' and ');
  console.log(`2. listener idle RSS (svc-runner run, idle-polling; sampled after ${at}; ${SVC_RUNNER})`);
  const idleRoot = await configureRunner(served, 'bench-idle');
  const listener = start([SVC_RUNNER, 'run', '--runner-root', idleRoot], { HOME: idleRoot });
  await listener.waitFor(/Listening for Jobs/, 30_000);
  const pid = listener.child.pid;
  if (pid === undefined) throw new Error('the listener has no pid');
  const rss = await idleSamples(pid, performance.now());
  const floor = await nodeFloorMb();
  IDLE_SAMPLES_MS.forEach((ms, i) => {
    const mb = rss[i] ?? NaN;
    const base = floor[i] ?? NaN;
    const verdict = mb <= RSS_GOAL_MB ? 'met' : 'not met';
    console.log(`   after ${ms / 1000} s: VmRSS ${mb.toFixed(1)} MB (goal <= ${RSS_GOAL_MB} MB: ${verdict}); a bare idle node ${base.toFixed(1)} MB: ${(mb / base).toFixed(2)}x, +${(mb - base).toFixed(1)} MB`);
  });
}

async function main(): Promise<void> {
  buildBundles();
  const served = await startServe();
  if (!RSS_ONLY) await trivialJob(served);
  await idleRss(served);
}

try {
  await main();
} finally {
  await cleanupAll();
}
