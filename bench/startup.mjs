#!/usr/bin/env node
// `npm run bench:startup`: cold start of the built `svc serve` to a ready /readyz, and idle RSS
// after start, on the embedded SQLite store; and the CLI's own start: spawn to exit of
// `svc --help` and `svc run --help` (what every `svc run` pays before it does anything).
// Prints figures; asserts nothing.
// Baseline in the same run: a bare `node -e` process (its RSS and start time) so the figures
// can be read as ratios on any machine.
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';

const root = new URL('..', import.meta.url).pathname;
const RUNS = Number(process.env.BENCH_RUNS ?? 5);

function rssKb(pid) {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? NaN);
}

async function waitReady(url, deadline) {
  for (;;) {
    try {
      const response = await fetch(url);
      if (response.ok) return;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) throw new Error('svc serve did not become ready in 30 s');
    await sleep(2);
  }
}

async function measureServe(port) {
  const dir = mkdtempSync(join(tmpdir(), 'svc-bench-'));
  const plugins = join(dir, 'plugins.toml');
  writeFileSync(plugins, readFileSync(join(root, 'plugins.toml')));
  const env = {
    PATH: process.env.PATH,
    HOME: dir,
    SVC_DATA_DIR: join(dir, 'data'),
    SVC_LISTEN: `127.0.0.1:${port}`,
    SVC_LOG_LEVEL: 'warn',
    SVC_PLUGINS: plugins,
    // The server alone: no built-in pool guests starting beside it.
    SVC_POOL_BACKEND: 'off',
  };
  const started = performance.now();
  const child = spawn(process.execPath, [join(root, 'dist/cli/svc.js'), 'serve'], { env, stdio: ['ignore', 'ignore', 'inherit'] });
  await waitReady(`http://127.0.0.1:${port}/readyz`, Date.now() + 30_000);
  const readyMs = performance.now() - started;
  await sleep(1000); // let start-up garbage settle before reading idle RSS
  const rss = rssKb(child.pid);
  child.kill('SIGTERM');
  await new Promise((resolve) => child.on('exit', resolve));
  rmSync(dir, { recursive: true, force: true });
  return { readyMs, rssMb: rss / 1024 };
}

async function measureBareNode() {
  const started = performance.now();
  const child = spawn(process.execPath, ['-e', 'process.stdout.write("up\\n"); setInterval(() => {}, 1000)'], { stdio: ['ignore', 'pipe', 'inherit'] });
  await new Promise((resolve) => child.stdout.once('data', resolve));
  const readyMs = performance.now() - started;
  await sleep(1000);
  const rss = rssKb(child.pid);
  child.kill();
  return { readyMs, rssMb: rss / 1024 };
}

/** Spawn to exit, in ms. */
async function timeExit(args, env) {
  const started = performance.now();
  const child = spawn(process.execPath, args, { env, stdio: ['ignore', 'ignore', 'inherit'] });
  const code = await new Promise((resolve) => child.on('exit', resolve));
  if (code !== 0) throw new Error(`node ${args.join(' ')} exited ${code}`);
  return performance.now() - started;
}

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

const serve = [];
const bare = [];
for (let i = 0; i < RUNS; i++) {
  bare.push(await measureBareNode());
  serve.push(await measureServe(19090 + i));
}
const cliEnv = { PATH: process.env.PATH, HOME: tmpdir(), SVC_PLUGINS: join(root, 'plugins.toml') };
const cli = { bare: [], help: [], runHelp: [] };
for (let i = 0; i < RUNS * 2; i++) {
  cli.bare.push(await timeExit(['-e', '0'], cliEnv));
  cli.help.push(await timeExit([join(root, 'dist/cli/svc.js'), '--help'], cliEnv));
  cli.runHelp.push(await timeExit([join(root, 'dist/cli/svc.js'), 'run', '--help'], cliEnv));
}
const serveReady = median(serve.map((r) => r.readyMs));
const serveRss = median(serve.map((r) => r.rssMb));
const bareReady = median(bare.map((r) => r.readyMs));
const bareRss = median(bare.map((r) => r.rssMb));
console.log(`bench:startup (${RUNS} runs, ${RUNS * 2} for the CLI; medians; SQLite store, default plugins; load average ${loadavg().map((l) => l.toFixed(1)).join(' ')})`);
console.log(`  svc serve cold start to ready: ${serveReady.toFixed(0)} ms  (bare node: ${bareReady.toFixed(0)} ms, ratio ${(serveReady / bareReady).toFixed(1)}x)`);
const cliBare = median(cli.bare);
console.log(`  svc --help, spawn to exit:      ${median(cli.help).toFixed(0)} ms  (bare node -e 0: ${cliBare.toFixed(0)} ms, +${(median(cli.help) - cliBare).toFixed(0)} ms)`);
console.log(`  svc run --help, spawn to exit:  ${median(cli.runHelp).toFixed(0)} ms  (+${(median(cli.runHelp) - cliBare).toFixed(0)} ms over bare node)`);
console.log(`  svc serve idle RSS:            ${serveRss.toFixed(1)} MB  (bare node: ${bareRss.toFixed(1)} MB, ratio ${(serveRss / bareRss).toFixed(1)}x; goal <= 70 MB)`);
