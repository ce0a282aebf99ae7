// `npm run bench:engine`: run creation for a 1,000-job matrix on SQLite (until its first jobs
// are queued), and the latency from "job queued" to "handed to a waiting runner" on one node.
// Prints figures; asserts nothing. Baseline in the same run: a bare SQLite insert of the same
// rows, so the figures read as ratios on any machine.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInProcessNotifier, createSqliteStore } from '../backends/sqlite/index.js';
import { createEngine, engineMigrations, type NewJob } from '../core/engine/index.js';
import { createSilentLogger, systemClock } from '../core/kernel/index.js';
import { job, matrixJob, runInput } from '../test/support/run-builder.js';

const logger = createSilentLogger();

async function setup() {
  const dataDir = mkdtempSync(join(tmpdir(), 'svc-bench-engine-'));
  const store = await createSqliteStore({ logger, clock: systemClock, dataDir });
  const report = await store.migrator.migrate('engine', engineMigrations);
  if (report.error) throw report.error;
  const notifier = createInProcessNotifier(logger);
  const engine = createEngine({ database: store.database, notifier, clock: systemClock, logger, nodeId: 'bench', serverUrl: () => 'http://127.0.0.1:9090' });
  return { engine, store, dataDir, cleanup: async () => { await store.database.close(); rmSync(dataDir, { recursive: true, force: true }); } };
}

const percentile = (values: number[], p: number) => [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor((values.length * p) / 100))] ?? NaN;

// 1. A 1,000-job matrix (40 x 25), plus a dependent job.
{
  const { engine, store, cleanup } = await setup();
  const combos = Array.from({ length: 1000 }, (_, i) => ({ os: `os${i % 40}`, v: `v${Math.floor(i / 40)}` }));
  const jobs: NewJob[] = [...matrixJob('test', combos, { maxParallel: 1000 }), job('report', { needs: ['test'] })];
  const times: number[] = [];
  for (let i = 0; i < 5; i++) {
    const started = performance.now();
    const run = await engine.createRun(runInput(jobs, { workflow: { id: `wf${i}`, path: 'ci.yml', name: 'CI' } }));
    times.push(performance.now() - started);
    if (run.status !== 'queued') throw new Error(`run ${run.id} is ${run.status}`);
  }
  // Baseline: the same 1,001 rows inserted plainly in one transaction.
  const kysely = store.database.kysely.withTables<{ bench_rows: { id: number; body: string } }>();
  await kysely.schema.createTable('bench_rows').addColumn('id', 'integer', (c) => c.primaryKey()).addColumn('body', 'text').execute();
  const base: number[] = [];
  for (let i = 0; i < 5; i++) {
    const started = performance.now();
    await kysely.transaction().execute(async (tx) => {
      const rows = jobs.map((j, n) => ({ id: i * 10_000 + n, body: JSON.stringify(j) }));
      for (let s = 0; s < rows.length; s += 500) await tx.insertInto('bench_rows').values(rows.slice(s, s + 500)).execute();
    });
    base.push(performance.now() - started);
  }
  const p50 = percentile(times, 50);
  console.log(`bench:engine create a 1,001-job run and queue its first 1,000 (SQLite, 5 runs): p50 ${p50.toFixed(0)} ms, max ${Math.max(...times).toFixed(0)} ms (goal <= 1000 ms); plain insert of the rows: ${percentile(base, 50).toFixed(1)} ms (ratio ${(p50 / percentile(base, 50)).toFixed(1)}x)`);
  await cleanup();
}

// 2. Job queued -> handed to a waiting runner (long poll woken by the notifier).
{
  const { engine, cleanup } = await setup();
  const identity = { runnerId: 'r', runnerName: 'r', labels: ['self-hosted'] };
  const latencies: number[] = [];
  for (let i = 0; i < 300; i++) {
    const waiting = engine.waitForJob(identity, { timeoutMs: 5000, leaseMs: 60_000 });
    await new Promise((resolve) => setImmediate(resolve));
    const queuedAt = performance.now();
    await engine.createRun(runInput([job('ping')], { workflow: { id: 'lat', path: 'ci.yml', name: 'CI' } }));
    const assignment = await waiting;
    latencies.push(performance.now() - queuedAt);
    if (!assignment) throw new Error('no job handed over');
    await engine.completeJob(assignment.job.id, 'r', { outcome: 'success' });
  }
  console.log(`bench:engine queued -> handed to a waiting runner (SQLite, one node, 300 jobs; includes the createRun commit): p50 ${percentile(latencies, 50).toFixed(2)} ms, p99 ${percentile(latencies, 99).toFixed(2)} ms (goal p50 <= 5 ms)`);
  await cleanup();
}
