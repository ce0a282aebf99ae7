/**
 * svc-runner playing the runner's part of a scenario, as a user runs it: `configure
 * --no-externals` against `<origin>/<repository>` with the scenario's label, then either the
 * scenario's workflow submitted and `run --once` (once per job the runner takes; the run
 * cancelled while its first job runs, for a cancellation), or `remove`.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { spawnCli } from '../../../test/support/spawn-cli.js';
import type { Target } from '../replay/execute.js';
import type { HttpSettings } from '../replay/http.js';
import type { JsonObject } from '../replay/scenario-types.js';
import { cancelRun, submitWorkflow } from './operator.js';
import type { RunnerPlan } from './plans.js';
import type { RecordedCall, Recorder } from './recorder.js';
import { callKey, channelOf } from './sequence.js';

export interface RunnerDrive {
  readonly target: Target;
  readonly http: HttpSettings;
  readonly recorder: Recorder;
  readonly plan: RunnerPlan;
  readonly label: string;
  readonly repository: string;
  readonly workflow: { readonly path: string; readonly files: JsonObject } | undefined;
  /** Environment of the CLI (the profile's, e.g. SVC_RUNNER_FLOW=broker). */
  readonly env: Readonly<Record<string, string>>;
  readonly timeoutMs?: number;
}

const delay = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function cli(args: readonly string[], env: Record<string, string>, timeoutMs: number, output: string[], whileRunning?: () => Promise<void>): Promise<void> {
  const child = spawnCli('svc-runner', args, env);
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<'timeout'>((resolve) => (timer = setTimeout(() => resolve('timeout'), timeoutMs)));
  try {
    const side = whileRunning?.().catch((error: unknown) => output.push(`operator: ${(error as Error).message}`));
    const ended = await Promise.race([child.exited, timeout]);
    await side;
    output.push(`$ svc-runner ${args[0] ?? ''}\n${child.output()}`);
    if (ended === 'timeout') throw new Error(`svc-runner ${args[0] ?? ''} did not end within ${timeoutMs} ms:\n${child.output()}`);
    if (ended.code !== 0) throw new Error(`svc-runner ${args[0] ?? ''} exited ${String(ended.code ?? ended.signal)}:\n${child.output()}`);
  } finally {
    clearTimeout(timer);
    if (child.child.exitCode === null && child.child.signalCode === null) {
      child.child.kill('SIGKILL');
      await child.exited;
    }
  }
}

/** A Worker's step report (a timeline update, or a run-service step update): not the listener's lock renewal (also a PATCH). */
function isStepReport(call: RecordedCall): boolean {
  return !call.operator && STEP_CHANNELS.has(channelOf(callKey(call)));
}
const STEP_CHANNELS = new Set(['timeline', 'results-steps']);

/** Waits until svc-runner's Worker has reported its steps, then a little longer (its step is running), and cancels. */
async function cancelWhenRunning(drive: RunnerDrive, runId: number): Promise<void> {
  const until = Date.now() + 60_000;
  while (!drive.recorder.peek().some(isStepReport)) {
    if (Date.now() > until) throw new Error('the job never reported a timeline update to cancel it at');
    await delay(100);
  }
  await delay(2_000);
  await cancelRun(drive.target, drive.http, runId);
}

/** Plays the plan; everything the CLI printed (for a failure's message). */
export async function driveRunner(drive: RunnerDrive): Promise<string[]> {
  const output: string[] = [];
  const home = mkdtempSync(join(tmpdir(), 'svc-runner-seq-root-'));
  const root = join(home, 'runner');
  const env = { HOME: home, ...drive.env };
  const timeoutMs = drive.timeoutMs ?? 90_000;
  try {
    const url = `${drive.target.origin}/${drive.repository}`;
    const name = `seq-${drive.label}`;
    await cli(['configure', '--url', url, '--token', drive.target.registrationToken, '--name', name, '--labels', drive.label, '--no-externals', '--runner-root', root], env, timeoutMs, output);
    if (drive.plan.kind === 'remove') {
      await cli(['remove', '--token', drive.target.registrationToken, '--runner-root', root], env, timeoutMs, output);
      return output;
    }
    if (drive.workflow === undefined) throw new Error(`scenario ${drive.plan.scenario} has no workflow to run`);
    const runId = await submitWorkflow(drive.target, drive.http, drive.repository, drive.workflow);
    for (let job = 0; job < (drive.plan.jobs ?? 1); job += 1) {
      const operator = drive.plan.cancel === true && job === 0 ? () => cancelWhenRunning(drive, runId) : undefined;
      await cli(['run', '--once', '--runner-root', root], env, timeoutMs, output, operator);
    }
    return output;
  } finally {
    rmSync(home, { recursive: true, force: true });
  }
}
