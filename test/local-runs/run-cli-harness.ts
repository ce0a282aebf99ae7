/**
 * `svc run` end to end, as a user meets it: `svc serve` spawned (SQLite, its own data dir and
 * plugins file) with either one `svc-runner` configured with `--no-externals` and the
 * `ubuntu-latest` label running jobs, or the built-in pool's guests on a chosen backend; and `svc
 * run` spawned in a temp git repository. The CLIs run from source through tsx, or from a bundle
 * (SVC_TEST_BUNDLE, `useBundle`).
 */
import assert from 'node:assert/strict';
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, rmSync } from 'node:fs';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { git } from '../snapshots/support.js';
import { createHostEnv, TEST_SYSTEM_TOKEN } from '../support/host-env.js';
import { nodeDistMirror, nodeDistMirrorUnavailable } from '../support/node-dist-mirror.js';
import { PROJECT_ROOT } from '../support/spawn-cli.js';

/** tsx by absolute URL: `svc run` starts in the user's repository, where `--import tsx` would not resolve. */
const TSX = import.meta.resolve('tsx');

export interface Spawned {
  readonly child: ChildProcess;
  stdout(): string;
  stderr(): string;
  /** Resolves once stdout + stderr match (rejects after `timeoutMs` with what was printed). */
  waitFor(pattern: RegExp, timeoutMs?: number): Promise<void>;
  readonly exited: Promise<number | null>;
}

/**
 * SVC_TEST_BUNDLE: a production bundle (`node scripts/build.mjs <dir>`, the dir inside the package
 * root) whose `cli/*.js` run instead of `cli/*.ts` through tsx; the built-in pool's guests then run
 * the bundled runner too. Many times faster to start than the sources through tsx. Read at each spawn.
 */
function entryPoint(script: string): string[] {
  const bundle = process.env.SVC_TEST_BUNDLE;
  if (bundle !== undefined && bundle !== '' && /^cli\/[\w-]+\.ts$/.test(script)) return [join(resolve(PROJECT_ROOT, bundle), script.replace(/\.ts$/, '.js'))];
  return ['--import', TSX, join(PROJECT_ROOT, script)];
}

/**
 * Points SVC_TEST_BUNDLE at a production bundle built now from the sources into
 * `dist-test-<label>-<pid>/` at the package root (dist/ is left alone), unless it is set already
 * (CI can build once for every suite); returns what removes the one built here.
 */
export function useBundle(label: string): () => void {
  if (process.env.SVC_TEST_BUNDLE !== undefined && process.env.SVC_TEST_BUNDLE !== '') return () => undefined;
  const dir = join(PROJECT_ROOT, `dist-test-${label}-${process.pid}`);
  const build = spawnSync(process.execPath, [join(PROJECT_ROOT, 'scripts/build.mjs'), dir], { cwd: PROJECT_ROOT, encoding: 'utf8' });
  if (build.status !== 0 || !existsSync(join(dir, 'cli/svc.js'))) throw new Error(`building the bundle into ${dir} failed:\n${build.stderr}`);
  process.env.SVC_TEST_BUNDLE = dir;
  return () => {
    delete process.env.SVC_TEST_BUNDLE;
    rmSync(dir, { recursive: true, force: true });
  };
}

export function spawnTs(script: string, args: readonly string[], env: Record<string, string>, cwd: string): Spawned {
  const child = spawn(process.execPath, [...entryPoint(script), ...args], { cwd, env: { PATH: process.env.PATH ?? '', ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  const waiters = new Set<() => void>();
  child.stdout?.on('data', (chunk: Buffer) => {
    out += chunk.toString();
    for (const check of waiters) check();
  });
  child.stderr?.on('data', (chunk: Buffer) => {
    err += chunk.toString();
    for (const check of waiters) check();
  });
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return {
    child,
    stdout: () => out,
    stderr: () => err,
    exited,
    waitFor(pattern, timeoutMs = 120_000) {
      return new Promise((resolve, reject) => {
        const check = () => {
          if (!pattern.test(out + err)) return;
          waiters.delete(check);
          clearTimeout(timer);
          resolve();
        };
        const timer = setTimeout(() => {
          waiters.delete(check);
          reject(new Error(`timed out waiting for ${pattern}; output so far:\n${out}${err}`));
        }, timeoutMs);
        waiters.add(check);
        check();
        // A process that exits before printing the pattern never will: say so at once.
        void exited.then((code) => {
          if (!waiters.has(check)) return;
          waiters.delete(check);
          clearTimeout(timer);
          reject(new Error(`exited (${code}) before printing ${pattern}; output so far:\n${out}${err}`));
        });
      });
    },
  };
}

export interface RunServer {
  readonly base: string;
  /** The environment `svc run` gets: SVC_URL, SVC_TOKEN, a plugins file with local-runs. */
  readonly cliEnv: Record<string, string>;
  stop(): Promise<void>;
}

/** `svc serve` and a runner for `ubuntu-latest` jobs; `stop()` ends both and removes their files. */
export async function startServerAndRunner(): Promise<RunServer> {
  const hostEnv = createHostEnv({ SVC_LOG_LEVEL: 'info' });
  const plugins = hostEnv.writePlugins(['blobs', 'engine', 'local-runs', 'runner-protocol'].map((id) => `[[plugin]]\nid = "${id}"\n`).join('\n'));
  const serve = spawnTs('cli/svc.ts', ['serve'], hostEnv.env, hostEnv.dir);
  const stops: (() => Promise<void>)[] = [() => stopProcess(serve), async () => hostEnv.cleanup()];
  const stop = async () => {
    for (const step of stops.reverse()) await step();
  };
  try {
    await serve.waitFor(/svc is ready/, 60_000);
    const listen = /"listen":"([^"]+)"/.exec(serve.stdout() + serve.stderr())?.[1];
    assert.ok(listen, serve.stdout());
    const base = `http://${listen}`;
    const root = join(hostEnv.dir, 'runner');
    const runnerEnv = { HOME: hostEnv.dir };
    const configure = spawnTs('cli/svc-runner.ts', ['configure', '--url', `${base}/acme/widgets`, '--token', TEST_SYSTEM_TOKEN, '--name', 'run-e2e', '--labels', 'ubuntu-latest', '--no-externals', '--runner-root', root], runnerEnv, hostEnv.dir);
    assert.equal(await configure.exited, 0, configure.stdout() + configure.stderr());
    const runner = spawnTs('cli/svc-runner.ts', ['run', '--runner-root', root], runnerEnv, hostEnv.dir);
    stops.splice(1, 0, () => stopProcess(runner));
    await runner.waitFor(/Listening for Jobs/, 60_000);
    return { base, cliEnv: { HOME: hostEnv.dir, SVC_URL: base, SVC_TOKEN: TEST_SYSTEM_TOKEN, SVC_PLUGINS: plugins }, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}

/** The built-in pool's isolation backends the end-to-end tests run on. */
export type PoolBackend = 'process' | 'namespace' | 'microvm';

export interface PoolOptions {
  /** Idle guests kept ready (SVC_POOL_WARM). */
  readonly warm: number;
  /** Guests at most (SVC_POOL_MAX). */
  readonly max: number;
  /** More server variables (e.g. SVC_POOL_MICROVM_ACCEL). */
  readonly env?: Readonly<Record<string, string>>;
  /**
   * The server can be killed and started again as the same server (`crashAndRestart`): a fixed
   * loopback port and the file credential store (job tokens stay valid across the restart).
   */
  readonly restartable?: boolean;
  /** Plugins beyond the default set (e.g. `secrets`). */
  readonly plugins?: readonly string[];
}

/**
 * Pool servers get node 24 as a user's server does, from a nodejs.org/dist mirror: here the
 * offline one of test/support/node-dist-mirror.ts (built once per machine).
 */
async function nodeDistEnv(): Promise<Record<string, string>> {
  const unavailable = nodeDistMirrorUnavailable();
  if (unavailable !== undefined) {
    process.stderr.write(`\n!! the pool's guests get no node 24 here: ${unavailable}\n\n`);
    return {};
  }
  return { SVC_RUNNER_NODE_DIST: (await nodeDistMirror()).dir };
}

export interface PoolServer extends RunServer {
  /** The server's data directory (the pool's guest roots and the runner socket are in it). */
  readonly dataDir: string;
  /** The running `svc serve` (a new one after `crashAndRestart`). */
  readonly serve: () => Spawned;
  /**
   * `kill -9` of `svc serve`, then, `downMs` later, a new `svc serve` on the same data directory
   * and address (the pool needs `restartable`); resolves once it is ready.
   */
  crashAndRestart(downMs: number): Promise<void>;
}

/**
 * `svc serve` with the built-in pool on `backend` taking the jobs, the runtime services
 * (artifacts, cache) and the checkout relay, as `svc serve` runs for a user who installed nothing
 * else; resolves once a guest waits for a job.
 */
export async function startServerWithPool(backend: PoolBackend, options: PoolOptions): Promise<PoolServer> {
  const hostEnv = createHostEnv({
    ...(options.restartable === true ? { SVC_LISTEN: `127.0.0.1:${await freePort()}`, SVC_CREDENTIAL_STORE: 'file' } : {}),
    SVC_LOG_LEVEL: 'info',
    SVC_POOL_BACKEND: backend,
    SVC_POOL_WARM: String(options.warm),
    SVC_POOL_MAX: String(options.max),
    SVC_POOL_STOP_GRACE_SECONDS: '5',
    ...(await nodeDistEnv()),
    ...options.env,
  });
  const plugins = hostEnv.writePlugins(['management-api', 'blobs', 'engine', 'local-runs', 'vm-pool', 'runner-protocol', 'runtime-services', 'checkout-relay', ...(options.plugins ?? [])].map((id) => `[[plugin]]\nid = "${id}"\n`).join('\n'));
  let serve = spawnTs('cli/svc.ts', ['serve'], hostEnv.env, hostEnv.dir);
  const stop = async () => {
    await stopProcess(serve);
    hostEnv.cleanup();
  };
  const crashAndRestart = async (downMs: number) => {
    assert.ok(options.restartable, 'crashAndRestart needs a restartable server');
    serve.child.kill('SIGKILL');
    await serve.exited;
    await new Promise((done) => setTimeout(done, downMs));
    serve = spawnTs('cli/svc.ts', ['serve'], hostEnv.env, hostEnv.dir);
    await serve.waitFor(/svc is ready/, 60_000);
  };
  try {
    await serve.waitFor(/svc is ready/, 60_000);
    const listen = /"listen":"([^"]+)"/.exec(serve.stdout() + serve.stderr())?.[1];
    assert.ok(listen, serve.stdout());
    await serve.waitFor(/guest is waiting for a job/, 120_000);
    const base = `http://${listen}`;
    return { base, dataDir: hostEnv.env.SVC_DATA_DIR ?? '', cliEnv: { HOME: hostEnv.dir, SVC_URL: base, SVC_TOKEN: TEST_SYSTEM_TOKEN, SVC_PLUGINS: plugins }, serve: () => serve, crashAndRestart, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}

/** A loopback port nothing listens on now, for a server that must keep its address across a restart. */
async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((done) => server.close(() => done()));
  return port;
}

/** SIGTERM, then SIGKILL after 15 s; resolves once the process exited. */
export async function stopProcess(process: Spawned): Promise<void> {
  if (process.child.exitCode !== null || process.child.signalCode !== null) return;
  process.child.kill('SIGTERM');
  const timer = setTimeout(() => process.child.kill('SIGKILL'), 15_000);
  await process.exited;
  clearTimeout(timer);
}

/** A git repository with `committed` committed, then `working` written over it (left uncommitted). */
export async function gitRepository(committed: Record<string, string>, working: Record<string, string> = {}): Promise<{ dir: string; remove: () => Promise<void> }> {
  const dir = await mkdtemp(join(tmpdir(), 'svc-run-repo-'));
  await git(dir, ['init', '-q', '-b', 'main']);
  await writeFiles(dir, committed);
  await git(dir, ['add', '-A']);
  await git(dir, ['commit', '-q', '-m', 'initial']);
  await writeFiles(dir, working);
  return { dir, remove: () => rm(dir, { recursive: true, force: true }) };
}

async function writeFiles(dir: string, files: Record<string, string>): Promise<void> {
  for (const [path, content] of Object.entries(files)) {
    await mkdir(join(dir, path, '..'), { recursive: true });
    await writeFile(join(dir, path), content);
  }
}

/** `svc run <args>` in `cwd`. */
export function svcRun(args: readonly string[], env: Record<string, string>, cwd: string): Spawned {
  return spawnTs('cli/svc.ts', ['run', ...args], env, cwd);
}

export const EXAMPLES_DIR = fileURLToPath(new URL('../../examples/', import.meta.url));
