// `npm run bench:runtime-services`: the cache and artifact services of an in-process host (engine,
// runner-protocol, runtime-services; SQLite and the filesystem blob store in a temp dir), driven
// from a separate client process (bench/runtime-services-client.mjs) with a real job's step env.
// Prints figures; asserts nothing but that the bytes came back.
//   1. Cache: save and restore of a BENCH_CACHE_MB (default 1024) MiB entry the way @actions/cache
//      v2 moves it (Azure block upload of the archive, one GET down), against `cp` of the same
//      file on the same disk (and `cp` + fsync: the blob store syncs what it writes). Ratio =
//      cp time / service time (1.0 = as fast as cp; goal >= 0.8). tar/zstd are the client's, not
//      timed.
//   2. Artifacts: the real @actions/artifact client uploading and downloading BENCH_ARTIFACT_MB
//      (default 512) MiB, raw (skipArchive) and zipped at level 0, in MB/s.
import { spawn, spawnSync } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { createReadStream, mkdirSync, openSync, closeSync, fsyncSync, rmSync, writeFileSync, appendFileSync } from 'node:fs';
import { join } from 'node:path';
import { engineServiceRef, reportingServiceRef } from '../core/engine/index.js';
import { defaultCatalog } from '../builtins/index.js';
import { coreServices, createHost, createSilentLogger, definePlugin } from '../core/kernel/index.js';
import { createHostEnv, TEST_SYSTEM_TOKEN } from '../test/support/host-env.js';
import { ManualClock } from '../test/support/manual-clock.js';
import { dispatch, startRun, stepEnv } from '../test/runtime-services/job-steps.js';
import type { RuntimeHost } from '../test/runtime-services/runtime-host.js';

const MIB = 1024 * 1024;
const CACHE_MB = Number(process.env['BENCH_CACHE_MB'] ?? 1024);
const ARTIFACT_MB = Number(process.env['BENCH_ARTIFACT_MB'] ?? 512);
const CLIENT = new URL('./runtime-services-client.mjs', import.meta.url).pathname;
const WORKFLOW = 'on: push\njobs:\n  bench:\n    runs-on: [self-hosted, linux]\n    steps:\n      - run: bench\n';

function writeRandomFile(path: string, mib: number): void {
  writeFileSync(path, '');
  const chunk = 16;
  for (let written = 0; written < mib; written += chunk) appendFileSync(path, randomBytes(Math.min(chunk, mib - written) * MIB));
}

async function sha256(path: string): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of createReadStream(path)) hash.update(chunk as Buffer);
  return hash.digest('hex');
}

function timed(fn: () => void): number {
  const started = performance.now();
  fn();
  return performance.now() - started;
}

async function client(env: Record<string, string>, operation: string, args: unknown): Promise<number> {
  const child = spawn(process.execPath, [CLIENT, operation, JSON.stringify(args)], { env, cwd: env['GITHUB_WORKSPACE'], stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (err += chunk.toString()));
  const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
  if (code !== 0) throw new Error(`${operation} failed (${code}): ${err}\n${out.slice(-2000)}`);
  const last = out.trim().split('\n').at(-1) ?? '{}';
  return (JSON.parse(last) as { ms: number }).ms;
}

async function main(): Promise<void> {
  const hostEnv = createHostEnv();
  hostEnv.writePlugins(['engine', 'runner-protocol', 'runtime-services', 'bench-grabber'].map((id) => `[[plugin]]\nid = "${id}"\n`).join('\n'));
  let grabbed: Omit<RuntimeHost, 'host' | 'clock' | 'baseUrl' | 'systemToken' | 'dataDir'> | undefined;
  const grabber = definePlugin({
    id: 'bench-grabber',
    apiVersion: 1,
    deps: {
      engine: engineServiceRef,
      reporting: reportingServiceRef,
      sharedKeys: coreServices.sharedKeys,
      blobSigner: coreServices.blobSigner,
      snapshots: coreServices.snapshots,
      database: coreServices.database,
      blobStore: coreServices.blobStore,
    },
    init: (deps) => void (grabbed = deps),
  });
  const clock = new ManualClock(Date.now());
  const host = await createHost({
    env: { ...hostEnv.env, SVC_CACHE_MAX_BYTES: String(4 * CACHE_MB * MIB) },
    cwd: hostEnv.dir,
    logger: createSilentLogger(),
    clock,
    catalog: { ...defaultCatalog, plugins: { ...defaultCatalog.plugins, 'bench-grabber': async () => ({ plugin: grabber }) } },
  });
  try {
    if (grabbed === undefined) throw new Error('the grabber plugin was not initialised');
    const baseUrl = await host.start();
    const h: RuntimeHost = { host, clock, baseUrl, systemToken: TEST_SYSTEM_TOKEN, dataDir: hostEnv.env['SVC_DATA_DIR'] ?? '', ...grabbed };
    await startRun(h, WORKFLOW);
    const job = await dispatch(h);
    const dirs = { workspace: join(hostEnv.dir, 'work'), temp: join(hostEnv.dir, 'temp') };
    for (const dir of Object.values(dirs)) mkdirSync(dir, { recursive: true });
    const env = stepEnv(job.message, dirs);
    console.log(`runtime-services bench: host ${baseUrl}, data dir ${hostEnv.dir} (the same disk for every figure)`);

    // 1. Cache vs cp.
    const source = join(hostEnv.dir, 'cache.bin');
    writeRandomFile(source, CACHE_MB);
    const copy = join(hostEnv.dir, 'copy.bin');
    const cpMs = timed(() => {
      const result = spawnSync('cp', [source, copy]);
      if (result.status !== 0) throw new Error(`cp failed: ${result.stderr.toString()}`);
    });
    const syncMs = timed(() => {
      const fd = openSync(copy, 'r+');
      fsyncSync(fd);
      closeSync(fd);
    });
    rmSync(copy);
    const key = { key: 'bench-1g', version: 'b'.repeat(64) };
    const saveMs = await client(env, 'cache-save', { ...key, file: source });
    const restored = join(hostEnv.dir, 'restored.bin');
    const restoreMs = await client(env, 'cache-restore', { ...key, file: restored });
    const same = (await sha256(source)) === (await sha256(restored));
    rmSync(restored);
    const mbps = (ms: number, mib: number) => (mib / (ms / 1000)).toFixed(0);
    console.log(`\ncache entry of ${CACHE_MB} MiB (${same ? 'restored bytes identical' : 'RESTORED BYTES DIFFER'})`);
    console.log(`  cp              ${cpMs.toFixed(0).padStart(7)} ms  ${mbps(cpMs, CACHE_MB).padStart(5)} MiB/s`);
    console.log(`  cp + fsync      ${(cpMs + syncMs).toFixed(0).padStart(7)} ms  ${mbps(cpMs + syncMs, CACHE_MB).padStart(5)} MiB/s`);
    console.log(`  save (v2)       ${saveMs.toFixed(0).padStart(7)} ms  ${mbps(saveMs, CACHE_MB).padStart(5)} MiB/s  ratio vs cp ${(cpMs / saveMs).toFixed(2)}, vs cp+fsync ${((cpMs + syncMs) / saveMs).toFixed(2)}`);
    console.log(`  restore         ${restoreMs.toFixed(0).padStart(7)} ms  ${mbps(restoreMs, CACHE_MB).padStart(5)} MiB/s  ratio vs cp ${(cpMs / restoreMs).toFixed(2)}`);
    rmSync(source);

    // 2. Artifacts with the real client.
    const file = join(dirs.workspace, 'payload.bin');
    writeRandomFile(file, ARTIFACT_MB);
    console.log(`\nartifact of ${ARTIFACT_MB} MiB, @actions/artifact (8 MiB blocks)`);
    for (const [name, options] of [
      ['payload.bin', { skipArchive: true }],
      ['zipped', { compressionLevel: 0 }],
    ] as const) {
      const uploadMs = await client(env, 'artifact-upload', { name, files: [file], root: dirs.workspace, options });
      const target = join(dirs.temp, name === 'zipped' ? 'zipped' : 'raw');
      const downloadMs = await client(env, 'artifact-download', { name, path: target });
      rmSync(target, { recursive: true, force: true });
      const label = name === 'zipped' ? 'zip, level 0' : 'raw (skipArchive)';
      console.log(`  ${label.padEnd(18)} upload ${mbps(uploadMs, ARTIFACT_MB).padStart(5)} MiB/s (${uploadMs.toFixed(0)} ms)   download ${mbps(downloadMs, ARTIFACT_MB).padStart(5)} MiB/s (${downloadMs.toFixed(0)} ms)`);
    }
  } finally {
    await host.stop();
    hostEnv.cleanup();
  }
}

await main();
