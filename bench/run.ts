// `npm run bench:run [-- --samples=N] [-- --backend=process|namespace|microvm] [-- --source]`: `svc run`
// end to end against a warm `svc serve` (SQLite, temp data dir, the built-in pool with warm guests
// idle), per pool backend. The CLIs (and so the guests' runner) run from the production bundle, as
// users run them, built afresh from the sources into `dist-test-bench-run-<pid>/` at the package
// root (scripts/build.mjs; dist/ is left alone; or SVC_TEST_BUNDLE's) and removed at the end;
// `--source` runs them from source through tsx instead. Prints figures (medians of N); asserts nothing.
//   1. A trivial 3-step workflow (echo, true, date) through `svc run`: wall time from spawning
//      `svc run` to its exit. Baseline in the same run: the same three commands, each a script run
//      by `bash --noprofile --norc -eo pipefail` (the runner's bash command line), one after the
//      other. Overhead = svc run - bash, and the ratio. Also the server's own part (run created ->
//      run completed, from the run view) and the CLI start alone (`svc --help`).
//   2. Submit -> first step start: the run's created_at to its first step's started_at (the run
//      view's timestamps, millisecond precision), split at the job's started_at (handed to a guest).
//   3. A 4-way matrix (one `true` step per leg) through `svc run`: wall time to exit.
// microvm runs only when asked (`--backend=microvm`; SVC_POOL_MICROVM_* from the environment, e.g.
// SVC_POOL_MICROVM_ACCEL=tcg where KVM cannot boot the kernel) and also prints the cold start:
// `svc serve` spawned -> its first guest's runner session open (kernel boot, init, runner start).
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import type { RunView } from '../plugins/engine/run-view.js';
import { createMicrovmBackend } from '../plugins/vm-pool/backends/microvm/index.js';
import { createNamespaceBackend } from '../plugins/vm-pool/backends/namespace/index.js';
import { gitRepository, spawnTs, startServerWithPool, useBundle, svcRun, type PoolBackend, type PoolServer } from '../test/local-runs/run-cli-harness.js';
import { isolateGitConfig } from '../test/snapshots/support.js';
import { api, poolView } from '../test/vm-pool/support.js';

isolateGitConfig();

const option = (name: string) => process.argv.find((arg) => arg.startsWith(`--${name}=`))?.slice(name.length + 3);
const SAMPLES = Number(option('samples') ?? 5);
const WARM = 4;
/** The microvm knobs the bench's own environment sets, passed on to its server. */
const MICROVM_ENV = Object.fromEntries(Object.entries(process.env).filter((entry): entry is [string, string] => entry[0].startsWith('SVC_POOL_MICROVM_') && entry[1] !== undefined));
const COMMANDS = ['echo hello', 'true', 'date'] as const;
const TRIVIAL = ['name: trivial', 'on: push', 'jobs:', '  trivial:', '    runs-on: ubuntu-latest', '    steps:', ...COMMANDS.map((c) => `      - run: ${c}`), ''].join('\n');
const MATRIX = ['name: matrix', 'on: push', 'jobs:', '  leg:', '    runs-on: ubuntu-latest', '    strategy:', '      matrix:', '        n: [1, 2, 3, 4]', '    steps:', '      - run: true', ''].join('\n');

const median = (values: readonly number[]): number => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? NaN;
const ms = (value: number) => `${value.toFixed(0)} ms`;
const list = (values: readonly number[]) => values.map((v) => v.toFixed(0)).join(', ');

/** Until the pool has `WARM` guests waiting for a job (so every sample starts from a warm server). */
async function warmPool(server: PoolServer): Promise<void> {
  const deadline = Date.now() + 180_000;
  for (;;) {
    const idle = (await poolView(server.base)).guests?.filter((guest) => guest.phase === 'idle').length ?? 0;
    if (idle >= WARM) return;
    if (Date.now() > deadline) throw new Error(`the pool did not get ${WARM} idle guests in 180 s`);
    await sleep(100);
  }
}

interface Sample {
  readonly wallMs: number;
  readonly view: RunView;
}

/** `svc run` in `dir` on a warm pool: its wall time, and the run as the API has it afterwards. */
async function svcRunSample(server: PoolServer, dir: string): Promise<Sample> {
  await warmPool(server);
  const started = performance.now();
  const run = svcRun([], server.cliEnv, dir);
  const code = await run.exited;
  const wallMs = performance.now() - started;
  if (code !== 0) throw new Error(`svc run exited ${String(code)}:\n${run.stdout()}${run.stderr()}`);
  const id = /^svc run: run (\d+) of /m.exec(run.stderr())?.[1];
  if (id === undefined) throw new Error(`no run id in:\n${run.stderr()}`);
  return { wallMs, view: await api<RunView>(server.base, `/api/v1/runs/${id}`) };
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

async function cliStartSample(dir: string): Promise<number> {
  const started = performance.now();
  const help = spawnTs('cli/svc.ts', ['--help'], { HOME: dir }, dir);
  if ((await help.exited) !== 0) throw new Error(`svc --help failed:\n${help.stderr()}`);
  return performance.now() - started;
}

const time = (iso: string | null) => (iso === null ? NaN : Date.parse(iso));

/** The run's created_at to the first step that ran a command (the runner's own "Set up job" excluded). */
function submitToFirstStep(view: RunView): number {
  const steps = view.jobs.flatMap((job) => job.steps).filter((step) => step.name !== 'Set up job' && step.started_at !== null);
  return Math.min(...steps.map((step) => time(step.started_at))) - time(view.created_at);
}

/** The run's created_at to its first job's started_at (the job handed to a guest). */
const submitToJobStart = (view: RunView): number => Math.min(...view.jobs.map((job) => time(job.started_at))) - time(view.created_at);

async function benchBackend(backend: PoolBackend, scratch: string): Promise<void> {
  console.log(`\n== ${backend} backend (SVC_POOL_WARM=${WARM}, median of ${SAMPLES})`);
  const coldStart = performance.now();
  const server = await startServerWithPool(backend, { warm: WARM, max: WARM + 2, ...(backend === 'microvm' ? { env: MICROVM_ENV } : {}) });
  console.log(`0. cold: svc serve spawned -> first guest's runner session open: ${ms(performance.now() - coldStart)}`);
  const trivial = await gitRepository({ '.github/workflows/trivial.yml': TRIVIAL });
  const matrix = await gitRepository({ '.github/workflows/matrix.yml': MATRIX });
  try {
    await svcRunSample(server, trivial.dir); // warm-up: first-run costs (tsx cache, SQLite pages) out of the figures
    const runs: Sample[] = [];
    for (let i = 0; i < SAMPLES; i += 1) runs.push(await svcRunSample(server, trivial.dir));
    const bash: number[] = [];
    for (let i = 0; i < SAMPLES; i += 1) bash.push(bashSample(scratch));
    const cli: number[] = [];
    for (let i = 0; i < SAMPLES; i += 1) cli.push(await cliStartSample(scratch));
    const wall = runs.map((run) => run.wallMs);
    const serverSide = runs.map((run) => time(run.view.completed_at) - time(run.view.created_at));
    const firstStep = runs.map((run) => submitToFirstStep(run.view));
    const jobStart = runs.map((run) => submitToJobStart(run.view));
    const [svc, sh] = [median(wall), median(bash)];
    console.log(`1. trivial 3-step workflow (${COMMANDS.join(', ')})`);
    console.log(`   svc run, spawn -> exit:           ${ms(svc)} (samples ${list(wall)})`);
    console.log(`   bash -eo pipefail scripts:        ${median(bash).toFixed(1)} ms (samples ${bash.map((v) => v.toFixed(1)).join(', ')})`);
    console.log(`   overhead: ${ms(svc - sh)}, ratio ${(svc / sh).toFixed(1)}x  (goal: overhead <= ${backend === 'process' ? 100 : 250} ms)`);
    console.log(`   of which: server, run created -> completed: ${ms(median(serverSide))} (samples ${list(serverSide)});`);
    console.log(`             CLI start alone (svc --help): ${ms(median(cli))} (samples ${list(cli)})`);
    console.log(`2. submit -> first step start: ${ms(median(firstStep))} (samples ${list(firstStep)});`);
    console.log(`   of which submit -> job handed to a guest: ${ms(median(jobStart))} (samples ${list(jobStart)})`);
    await svcRunSample(server, matrix.dir);
    const legs: number[] = [];
    for (let i = 0; i < SAMPLES; i += 1) legs.push((await svcRunSample(server, matrix.dir)).wallMs);
    console.log(`3. 4-way matrix, svc run spawn -> exit: ${ms(median(legs))} (samples ${list(legs)})`);
  } finally {
    await trivial.remove();
    await matrix.remove();
    await server.stop();
  }
}

const silent = { info: () => undefined, warn: () => undefined, debug: () => undefined, error: () => undefined };
const scratch = mkdtempSync(join(tmpdir(), 'svc-bench-run-'));
const removeBundle = process.argv.includes('--source') ? () => undefined : useBundle('bench-run');
try {
  const bundle = process.env.SVC_TEST_BUNDLE;
  console.log(`bench:run on ${process.platform}, node ${process.version}, CLIs ${bundle === undefined ? 'from source through tsx' : `from the bundle ${bundle}`}; load average ${loadavg().map((l) => l.toFixed(1)).join(' ')}`);
  for (const backend of ['process', 'namespace', 'microvm'] as const) {
    if (option('backend') !== undefined && option('backend') !== backend) continue;
    if (backend === 'microvm') {
      if (option('backend') !== 'microvm') continue;
      const accel = MICROVM_ENV['SVC_POOL_MICROVM_ACCEL'] === 'tcg' ? 'tcg' : 'kvm';
      const probe = await createMicrovmBackend({ dataDir: scratch, accel, qemu: MICROVM_ENV['SVC_POOL_MICROVM_QEMU'], kernel: MICROVM_ENV['SVC_POOL_MICROVM_KERNEL'] }).probe();
      if (!probe.ok) {
        console.log(`\n== microvm backend: skipped, ${probe.reason}`);
        continue;
      }
    }
    if (backend === 'namespace') {
      const probe = await createNamespaceBackend({ logger: silent, dataDir: scratch }).probe();
      if (!probe.ok) {
        console.log(`\n== namespace backend: skipped, ${probe.reason}`);
        continue;
      }
    }
    await benchBackend(backend, scratch);
  }
} finally {
  rmSync(scratch, { recursive: true, force: true });
  removeBundle();
}
