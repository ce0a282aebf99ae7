/**
 * Shared set-up of the svc-runner suites: a started `svc serve` host (engine + runner-protocol)
 * whose clock follows real time (the runner signs its assertions with the real clock), runner
 * roots in temp directories, the CLI spawned as a user runs it, and the test worker fixture.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestContext } from 'node:test';
import { fileURLToPath } from 'node:url';
import type { JobRecord } from '../../core/engine/index.js';
import { delay, queueRun } from '../runner-protocol/listener-fixture.js';
import { runnerHost, type RunnerHost, type StoreKind } from '../runner-protocol/runner-host.js';
import { entryBundle } from '../support/entry-bundle.js';
import { onCleanup } from '../support/services.js';
import { spawnCli, type CliProcess } from '../support/spawn-cli.js';

export { delay, queueRun };

export const TEST_WORKER = fileURLToPath(new URL('./fixtures/test-worker.ts', import.meta.url));

export interface SvcHostOptions {
  readonly kind?: StoreKind;
  /** SVC_RUNNER_FLOW=broker: agents registered get UseV2Flow, legacy polls answer BrokerMigration. */
  readonly broker?: boolean;
}

/** A host whose manual clock is kept at real time (assertions, leases and locks then behave as in production). */
export async function svcHost(t: TestContext, options: SvcHostOptions = {}): Promise<RunnerHost> {
  const h = await runnerHost(t, {
    kind: options.kind ?? 'sqlite',
    ...(options.broker ? { env: { SVC_RUNNER_FLOW: 'broker' } } : {}),
    plugin: { timings: { pollHoldMs: 2000 } },
  });
  h.clock.set(Date.now());
  const tick = setInterval(() => h.clock.set(Date.now()), 50);
  onCleanup(t, () => clearInterval(tick));
  return h;
}

export function tempDir(t: TestContext, prefix = 'svc-runner-'): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  onCleanup(t, () => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

/** The CLI as a user runs it; killed after the test if still running. */
export function runnerCli(t: TestContext, args: readonly string[], env: Record<string, string> = {}): CliProcess {
  const cli = spawnCli('svc-runner', args, { HOME: tmpdir(), ...env });
  onCleanup(t, async () => {
    if (cli.child.exitCode === null && cli.child.signalCode === null) {
      cli.child.kill('SIGKILL');
      await cli.exited;
    }
  });
  return cli;
}

/** Runs the CLI to its end; the exit code and everything it printed. */
export async function runToEnd(t: TestContext, args: readonly string[], env: Record<string, string> = {}, timeoutMs = 60_000): Promise<{ code: number | null; output: string }> {
  const cli = runnerCli(t, args, env);
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => reject(new Error(`svc-runner ${args.join(' ')} did not end within ${timeoutMs} ms; output:\n${cli.output()}`)), timeoutMs);
  });
  try {
    const { code } = await Promise.race([cli.exited, timeout]);
    return { code, output: cli.output() };
  } finally {
    clearTimeout(timer);
  }
}

/** `configure --no-externals` against the host, asserting success. */
export async function configure(t: TestContext, h: RunnerHost, root: string, name: string, extra: readonly string[] = []): Promise<string> {
  const { code, output } = await runToEnd(t, ['configure', '--url', `${h.baseUrl}/acme/widgets`, '--token', h.systemToken, '--name', name, '--labels', 'linux', '--no-externals', '--runner-root', root, ...extra]);
  assert.equal(code, 0, output);
  return output;
}

/** Environment that makes the listener start the test worker in `mode`, logging to `log`. */
export function testWorkerEnv(mode: string, log: string): Record<string, string> {
  return {
    SVC_RUNNER_WORKER_COMMAND: JSON.stringify([process.execPath, entryBundle(TEST_WORKER)]),
    TEST_WORKER_MODE: mode,
    TEST_WORKER_LOG: log,
  };
}

export interface WorkerLogEntry {
  readonly event: string;
  readonly [key: string]: unknown;
}

export function readWorkerLog(path: string): WorkerLogEntry[] {
  let text = '';
  try {
    text = readFileSync(path, 'utf8');
  } catch {
    return [];
  }
  return text
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => JSON.parse(line) as WorkerLogEntry);
}

/** Waits until the job is finished in the engine (or fails after `timeoutMs` naming its last state). */
export async function finishedJob(h: RunnerHost, jobId: number, timeoutMs = 30_000): Promise<JobRecord> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const job = await h.engine.getJob(jobId);
    if (job !== undefined && ['success', 'failure', 'cancelled', 'skipped'].includes(job.status)) return job;
    if (Date.now() > until) throw new Error(`job ${jobId} is still ${job?.status ?? 'missing'} after ${timeoutMs} ms`);
    await delay(100);
  }
}
