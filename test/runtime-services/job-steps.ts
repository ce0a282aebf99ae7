/**
 * Jobs as the runtime services see them: a run created from a workflow for a ref and event, its
 * next job dispatched (claimed, its message built with a job token, as the Listener hands it to
 * the Worker), and the environment a job step gets from that message as the runner derives it
 * (RUNNER-PROTOCOL.md §5.1). Steps run the real toolkit clients in a child process
 * (toolkit/toolkit-step.mjs, bundled as actions ship: toolkit/step-bundle.ts), so their
 * env-derived configuration is the job's.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestContext } from 'node:test';
import { selectRuns, type Json, type RunRecord } from '../../core/engine/index.js';
import { decodeContextData, fromContextData, type JsonObject, type JsonValue } from '../../core/protocol/index.js';
import { onCleanup } from '../support/services.js';
import { dispatchNext, RUNNER, WORKFLOW_PATH, type DispatchedJob } from '../runner-protocol/worker-job.js';
import type { RuntimeHost } from './runtime-host.js';
import { toolkitStepBundle } from './toolkit/step-bundle.js';

export const REPOSITORY = 'acme/widgets';
const SHA = 'c'.repeat(40);

export interface RunOptions {
  readonly ref?: string;
  readonly event?: string;
  readonly repository?: string;
  /** Extra payload members (the repository, with `default_branch: main`, is always there). */
  readonly payload?: Readonly<Record<string, Json>>;
}

/** A run of `workflow` for `ref` (default `refs/heads/main`) whose default branch is `main`. */
export async function startRun(h: RuntimeHost, workflow: string, options: RunOptions = {}): Promise<RunRecord> {
  const ref = options.ref ?? 'refs/heads/main';
  const repository = options.repository ?? REPOSITORY;
  const payload = { ref, after: SHA, repository: { full_name: repository, default_branch: 'main' }, ...options.payload };
  const [selection] = await selectRuns({
    event: { name: options.event ?? 'push', payload, ref, sha: SHA },
    repository,
    actor: 'octo',
    trigger: 'local',
    workflows: [{ path: WORKFLOW_PATH, content: workflow }],
    serverUrl: h.baseUrl,
  });
  assert.ok(selection?.kind === 'run', `the workflow makes a run: ${JSON.stringify(selection)}`);
  return h.engine.createRun(selection.input);
}

/** The next queued job, dispatched: what the Worker gets. */
export async function dispatch(h: RuntimeHost): Promise<DispatchedJob> {
  return dispatchNext(h);
}

/** The job ends successfully (the runner's completion), so its dependants queue. */
export async function finish(h: RuntimeHost, job: DispatchedJob): Promise<void> {
  assert.ok(await h.engine.completeJob(job.assignment.job.id, RUNNER.runnerId, { outcome: 'success' }), 'the job completes');
  await h.engine.advance(job.assignment.run.id);
}

const object = (value: JsonValue | undefined): JsonObject => {
  assert.ok(typeof value === 'object' && value !== null && !Array.isArray(value), 'an object');
  return value as JsonObject;
};

/** The `github` context of a job message, as plain values. */
export function githubContext(message: JsonObject): JsonObject {
  return object(fromContextData(decodeContextData(object(message['contextData'])['github'] ?? null)) as JsonValue);
}

/** What the runner sets for a JavaScript action step (§5.1), from the job message. */
export function stepEnv(message: JsonObject, dirs: { readonly workspace: string; readonly temp: string }): Record<string, string> {
  const endpoints = object(message['resources'])['endpoints'] as JsonValue[];
  const connection = endpoints.map(object).find((endpoint) => String(endpoint['name']).toLowerCase() === 'systemvssconnection');
  assert.ok(connection, 'the message has a SystemVssConnection');
  const data = object(connection['data']);
  const token = String(object(object(connection['authorization'])['parameters'])['AccessToken']);
  const variables = object(message['variables']);
  const variable = (name: string): string | undefined => {
    const entry = variables[name];
    return entry === undefined ? undefined : String(object(entry)['value']);
  };
  const github = githubContext(message);
  const env: Record<string, string> = {
    PATH: process.env['PATH'] ?? '/usr/bin:/bin',
    HOME: dirs.temp,
    GITHUB_ACTIONS: 'true',
    CI: 'true',
    GITHUB_WORKSPACE: dirs.workspace,
    RUNNER_TEMP: dirs.temp,
    RUNNER_OS: 'Linux',
    ACTIONS_RUNTIME_URL: String(data['PipelinesServiceUrl'] || connection['url']),
    ACTIONS_RUNTIME_TOKEN: token,
  };
  const set = (name: string, value: JsonValue | undefined) => {
    if (value !== undefined && value !== null && String(value) !== '') env[name] = String(value);
  };
  set('ACTIONS_CACHE_URL', data['CacheServerUrl']);
  set('ACTIONS_RESULTS_URL', data['ResultsServiceUrl']);
  if (variable('actions_uses_cache_service_v2')?.toLowerCase() === 'true') env['ACTIONS_CACHE_SERVICE_V2'] = 'True';
  set('ACTIONS_CACHE_MODE', variable('actions_cache_mode'));
  if (String(data['GenerateIdTokenUrl'] ?? '') !== '') {
    env['ACTIONS_ID_TOKEN_REQUEST_URL'] = String(data['GenerateIdTokenUrl']);
    env['ACTIONS_ID_TOKEN_REQUEST_TOKEN'] = token;
  }
  for (const [name, key] of [
    ['GITHUB_SERVER_URL', 'server_url'],
    ['GITHUB_API_URL', 'api_url'],
    ['GITHUB_REPOSITORY', 'repository'],
    ['GITHUB_REF', 'ref'],
    ['GITHUB_SHA', 'sha'],
    ['GITHUB_RUN_ID', 'run_id'],
    ['GITHUB_RUN_ATTEMPT', 'run_attempt'],
    ['GITHUB_RETENTION_DAYS', 'retention_days'],
    ['GITHUB_EVENT_NAME', 'event_name'],
  ] as const) {
    set(name, github[key]);
  }
  return env;
}

export interface StepRun<T> {
  readonly result: T;
  /** The step's stdout (workflow commands: `::warning::`, `::debug::`, ...). */
  readonly output: string;
}

/** A job's step directories (workspace, temp), removed after the test. */
export function stepDirs(t: TestContext): { readonly workspace: string; readonly temp: string } {
  const root = mkdtempSync(join(tmpdir(), 'svc-step-'));
  onCleanup(t, () => rmSync(root, { recursive: true, force: true }));
  const dirs = { workspace: join(root, 'work'), temp: join(root, 'temp') };
  for (const dir of Object.values(dirs)) mkdirSync(dir);
  return dirs;
}


/** Runs one toolkit operation as a step of the job whose env is given; fails the test when the step throws. */
export async function runStep<T>(env: Record<string, string>, operation: string, args: Readonly<Record<string, unknown>>): Promise<StepRun<T>> {
  const resultFile = join(env['RUNNER_TEMP'] ?? tmpdir(), `result-${Math.random().toString(36).slice(2)}.json`);
  const child = spawn(process.execPath, [await toolkitStepBundle(), operation, JSON.stringify(args), resultFile], { cwd: env['GITHUB_WORKSPACE'], env, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  let errors = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (errors += chunk.toString()));
  const timer = setTimeout(() => child.kill('SIGKILL'), 180_000);
  const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
  clearTimeout(timer);
  assert.equal(code, 0, `the ${operation} step failed (exit ${code}):\n${errors}\n${output}`);
  return { result: JSON.parse(readFileSync(resultFile, 'utf8')) as T, output };
}
