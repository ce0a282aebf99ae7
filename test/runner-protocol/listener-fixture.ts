/**
 * Shared set-up of the listener suites: a host with a short poll hold, configured runners with
 * open sessions, and runs whose jobs they can take (a real workflow file, so the job message
 * plans from it).
 */
import type { TestContext } from 'node:test';
import type { JobRecord, RunRecord } from '../../core/engine/index.js';
import type { LegacyFlowTimings } from '../../plugins/runner-protocol/sessions/index.js';
import { job, runInput } from '../support/run-builder.js';
import { runnerHost, type RunnerHost, type StoreKind } from './runner-host.js';
import { ScriptedListener } from './scripted-listener.js';
import { ScriptedRunner } from './scripted-runner.js';

export const WORKFLOW_PATH = '.github/workflows/ci.yml';

/** One job, `build`, on the labels given, with one script step. */
export function workflow(labels: readonly string[]): string {
  return ['name: CI', 'on: push', 'jobs:', '  build:', `    runs-on: [${labels.join(', ')}]`, '    steps:', '      - run: echo hello', ''].join('\n');
}

export async function listenerHost(t: TestContext, kind: StoreKind, timings: Partial<LegacyFlowTimings> = {}): Promise<RunnerHost> {
  return runnerHost(t, { kind, plugin: { timings: { pollHoldMs: 1500, ...timings } } });
}

/** A runner configured (`config.sh`) and listening (`run.sh` up to its first poll). */
export async function listeningRunner(h: RunnerHost, name: string, options: { readonly labels?: readonly string[]; readonly ephemeral?: boolean } = {}): Promise<ScriptedListener> {
  const runner = new ScriptedRunner({ url: `${h.baseUrl}/acme/widgets`, token: h.systemToken, name, clock: h.clock });
  const config = await runner.configure({ ...(options.labels ? { labels: options.labels } : {}), ...(options.ephemeral ? { ephemeral: true } : {}) });
  const listener = new ScriptedListener(runner, config);
  await listener.openSession();
  return listener;
}

/** Queues a run of `workflow(labels)` with `engine.createRun`; its one job is queued at once. */
export async function queueRun(h: RunnerHost, labels: readonly string[] = ['self-hosted', 'linux']): Promise<{ run: RunRecord; job: JobRecord }> {
  const run = await h.engine.createRun(runInput([job('build', { runsOn: [...labels] })], { files: [{ path: WORKFLOW_PATH, content: workflow(labels) }] }));
  const [first] = await h.engine.listJobs(run.id);
  if (!first) throw new Error('the run has no job');
  return { run, job: first };
}

export function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
