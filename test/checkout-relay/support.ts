/**
 * A host with `engine`, `runner-protocol`, `local-runs` and `checkout-relay` (SQLite), a work
 * tree with an uncommitted change uploaded and submitted as `svc run` does, and its job taken by
 * a runner with the job message the Worker gets: the `github` context and the GITHUB_TOKEN
 * (`system.github.token`) actions/checkout reads.
 */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { TestContext } from 'node:test';
import { decodeContextData, fromContextData, type JsonObject, type JsonValue } from '../../core/protocol/index.js';
import { submitRun, uploadWorkTree, type LocalRunsHost } from '../local-runs/support.js';
import { runnerHost, type RunnerHost } from '../runner-protocol/runner-host.js';
import { dispatchNext, type DispatchedJob } from '../runner-protocol/worker-job.js';
import { git, isolateGitConfig, TEST_GIT_ENV } from '../snapshots/support.js';
import { tempDir } from '../support/services.js';

isolateGitConfig();

export const REPOSITORY = 'acme/app';
export const WORKFLOW = '.github/workflows/ci.yml';

const CI = `name: CI
on: push
jobs:
  build:
    runs-on: self-hosted
    steps:
      - uses: actions/checkout@v4
      - run: make test
`;

/** What the snapshot holds: `app.txt` changed after the commit, `new.txt` never committed. */
export const TREE = { 'app.txt': 'uncommitted change\n', 'new.txt': 'untracked\n', 'README.md': '# app\n', [WORKFLOW]: CI } as const;

export interface CheckoutJob {
  readonly h: RunnerHost;
  readonly runId: number;
  /** The snapshot commit (`github.sha`). */
  readonly sha: string;
  /** `system.github.token`: what actions/checkout gets as `token`. */
  readonly token: string;
  /** `github.server_url` (`http://svc.localhost:<port>`), where actions/checkout fetches from. */
  readonly serverUrl: string;
  /** `github.api_url`. */
  readonly apiUrl: string;
  readonly job: DispatchedJob;
}

export async function relayHost(t: TestContext, env: Record<string, string> = {}): Promise<RunnerHost> {
  return runnerHost(t, { plugins: ['local-runs', 'checkout-relay'], env });
}

/** The work tree `svc run` would snapshot: one commit, then an uncommitted and an untracked file. */
async function workTree(t: TestContext): Promise<string> {
  const dir = await tempDir(t);
  await git(dir, ['init', '-q', '-b', 'main']);
  await write(dir, { 'app.txt': 'committed\n', 'README.md': TREE['README.md'], [WORKFLOW]: CI });
  await git(dir, ['add', '-A']);
  await git(dir, ['commit', '-q', '-m', 'initial']);
  await write(dir, { 'app.txt': TREE['app.txt'], 'new.txt': TREE['new.txt'] });
  return dir;
}

async function write(dir: string, files: Record<string, string>): Promise<void> {
  for (const [path, content] of Object.entries(files)) {
    await mkdir(join(dir, path, '..'), { recursive: true });
    await writeFile(join(dir, path), content);
  }
}

function asLocalRunsHost(h: RunnerHost): LocalRunsHost {
  return { host: h.host, base: h.baseUrl, engine: h.engine, snapshots: h.snapshots, clock: h.clock, auth: { authorization: `Bearer ${h.systemToken}` } };
}

/** Uploads the work tree, submits its workflow (a local push run) and takes its job (on `dispatchOn` when given). */
export async function localRunJob(t: TestContext, h: RunnerHost, options: { readonly ref?: string; readonly dispatchOn?: RunnerHost } = {}): Promise<CheckoutJob> {
  const local = asLocalRunsHost(h);
  const uploaded = await uploadWorkTree(local, await workTree(t), REPOSITORY);
  assert.equal(uploaded.status, 201, JSON.stringify(uploaded.body));
  const sha = String(uploaded.body['sha']);
  const submitted = await submitRun(local, { repository: REPOSITORY, snapshot: sha, workflow: WORKFLOW, ...(options.ref === undefined ? {} : { ref: options.ref }) });
  assert.equal(submitted.status, 201, JSON.stringify(submitted.body));
  const runId = Number((submitted.body['runs'] as { run_id: number }[])[0]?.run_id);
  // `dispatchOn`: another node on the same store whose runner takes the job (several nodes).
  const runner = options.dispatchOn ?? h;
  return jobOf(runner, await dispatchNext(runner), sha, runId);
}

export function jobOf(h: RunnerHost, job: DispatchedJob, sha: string, runId: number): CheckoutJob {
  const github = githubContext(job.message);
  assert.equal(github['sha'], sha, 'the job checks out the snapshot');
  const variables = object(job.message['variables']);
  const token = String(object(variables['system.github.token'])['value']);
  return { h, runId, sha, token, serverUrl: String(github['server_url']), apiUrl: String(github['api_url']), job };
}

function object(value: JsonValue | undefined): JsonObject {
  assert.ok(typeof value === 'object' && value !== null && !Array.isArray(value), 'an object');
  return value as JsonObject;
}

function githubContext(message: JsonObject): JsonObject {
  return object(fromContextData(decodeContextData(object(message['contextData'])['github'] ?? null)) as JsonValue);
}

/** `AUTHORIZATION: basic base64(x-access-token:<token>)`, actions/checkout's extra header. */
export function basicHeader(token: string): string {
  return `AUTHORIZATION: basic ${Buffer.from(`x-access-token:${token}`).toString('base64')}`;
}

export interface GitRun {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

/** The job step's git: no machine configuration, no prompts, no proxy; fails are answers here. */
export function jobGit(cwd: string, args: readonly string[], env: Record<string, string> = {}): Promise<GitRun> {
  return new Promise((resolve) => {
    execFile('git', args, { cwd, env: { ...TEST_GIT_ENV, GIT_TERMINAL_PROMPT: '0', ...env }, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 }, (error, stdout, stderr) => {
      const code = error === null ? 0 : typeof error.code === 'number' ? error.code : -1;
      resolve({ code, stdout, stderr });
    });
  });
}

export async function okGit(cwd: string, args: readonly string[], env: Record<string, string> = {}): Promise<string> {
  const run = await jobGit(cwd, args, env);
  assert.equal(run.code, 0, `git ${args.join(' ')} failed:\n${run.stderr}`);
  return run.stdout;
}

/**
 * What actions/checkout@v4 runs for a workflow repository's push (src/git-source-provider.ts,
 * git-command-manager.ts, git-auth-helper.ts, ref-helper.ts): init, remote, auth as an extra
 * header scoped to the server's origin, a depth-1 fetch of the sha into the branch's remote ref,
 * then a forced checkout of the branch. Returns the work tree.
 */
export async function actionsCheckout(t: TestContext, job: CheckoutJob, options: { protocol?: '0' | '2'; repository?: string; token?: string; refSpec?: string } = {}): Promise<{ dir: string; fetch: GitRun }> {
  const dir = await tempDir(t);
  const repository = options.repository ?? REPOSITORY;
  const [owner = '', repo = ''] = repository.split('/');
  await okGit(dir, ['init', dir]);
  await okGit(dir, ['remote', 'add', 'origin', `${new URL(job.serverUrl).origin}/${encodeURIComponent(owner)}/${encodeURIComponent(repo)}`]);
  await okGit(dir, ['config', '--local', 'gc.auto', '0']);
  await okGit(dir, ['config', '--local', `http.${new URL(job.serverUrl).origin}/.extraheader`, basicHeader(options.token ?? job.token)]);
  const fetch = await jobGit(dir, ['-c', `protocol.version=${options.protocol ?? '2'}`, 'fetch', '--no-tags', '--prune', '--no-recurse-submodules', '--depth=1', 'origin', options.refSpec ?? `+${job.sha}:refs/remotes/origin/main`], {
    GIT_TRACE_CURL: '1',
    GIT_TRACE_CURL_NO_DATA: '1',
  });
  if (fetch.code === 0 && options.refSpec === undefined) await okGit(dir, ['checkout', '--progress', '--force', '-B', 'main', 'refs/remotes/origin/main']);
  return { dir, fetch };
}
