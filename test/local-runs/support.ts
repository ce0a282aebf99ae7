/**
 * A host with the `engine` and `local-runs` plugins on SQLite, a git work tree with every file
 * state `svc run` meets, and the two calls `svc run` makes (upload, submit) over real HTTP.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { PassThrough, Readable } from 'node:stream';
import type { TestContext } from 'node:test';
import { packWorkingTree, type PackResult } from '../../plugins/local-runs/cli/snapshot/index.js';
import { engineServiceRef, type Engine } from '../../core/engine/index.js';
import { defaultCatalog } from '../../builtins/index.js';
import { coreServices, createHost, createSilentLogger, definePlugin, type Host } from '../../core/kernel/index.js';
import type { SnapshotStore } from '../../core/ports/index.js';
import { git } from '../snapshots/support.js';
import { createHostEnv } from '../support/host-env.js';
import { ManualClock } from '../support/manual-clock.js';
import { onCleanup, tempDir } from '../support/services.js';

export interface LocalRunsHost {
  readonly host: Host;
  /** Where the started host listens (`http://127.0.0.1:<port>`). */
  readonly base: string;
  readonly engine: Engine;
  readonly snapshots: SnapshotStore;
  readonly clock: ManualClock;
  readonly auth: { readonly authorization: string };
}

/** A started host (SQLite, private data dir) with `engine` and `local-runs` (and `plugins`); stopped after the test. */
export async function localRunsHost(t: TestContext, env: Record<string, string> = {}, plugins: readonly string[] = []): Promise<LocalRunsHost> {
  const hostEnv = createHostEnv(env);
  onCleanup(t, () => hostEnv.cleanup());
  hostEnv.writePlugins(['engine', 'local-runs', ...plugins, 'local-runs-test-grabber'].map((id) => `[[plugin]]\nid = "${id}"\n`).join('\n'));
  let grabbed: { engine: Engine; snapshots: SnapshotStore } | undefined;
  const grabber = definePlugin({
    id: 'local-runs-test-grabber',
    apiVersion: 1,
    deps: { engine: engineServiceRef, snapshots: coreServices.snapshots },
    init: (deps) => void (grabbed = deps),
  });
  const clock = new ManualClock();
  const host = await createHost({
    env: hostEnv.env,
    cwd: hostEnv.dir,
    logger: createSilentLogger(),
    clock,
    catalog: { ...defaultCatalog, plugins: { ...defaultCatalog.plugins, 'local-runs-test-grabber': async () => ({ plugin: grabber }) } },
  });
  onCleanup(t, () => host.stop());
  if (!grabbed) throw new Error('the host did not provide the engine and the snapshot store');
  const base = await host.start();
  return { host, base, clock, ...grabbed, auth: { authorization: `Bearer ${hostEnv.env.SVC_SYSTEM_TOKEN ?? ''}` } };
}

export const CI_COMMITTED = `name: CI
on:
  push:
    branches: [main]
  pull_request:
  workflow_dispatch:
    inputs:
      level:
        type: string
        default: info
jobs:
  build:
    runs-on: self-hosted
    steps:
      - run: echo build
  test:
    needs: build
    runs-on: self-hosted
    steps:
      - run: echo test
  call:
    needs: test
    uses: ./.github/workflows/deploy.yml
    with:
      target: staging
`;

/** The uncommitted version: adds `lint`, which only the snapshot can know about. */
export const CI_WORKING = `${CI_COMMITTED}  lint:
    runs-on: self-hosted
    steps:
      - run: echo lint
`;

/** Untracked: read by the reusable-workflow loader from the snapshot, or not at all. */
export const DEPLOY = `on:
  workflow_call:
    inputs:
      target:
        type: string
        required: true
jobs:
  deploy:
    runs-on: self-hosted
    steps:
      - run: echo deploying to \${{ inputs.target }}
`;

export const DOCS_ONLY = `on:
  push:
    paths: ['docs/**']
jobs:
  docs:
    runs-on: self-hosted
    steps:
      - run: echo docs
`;

/**
 * A work tree as `svc run` finds it: committed files, an uncommitted change to ci.yml, untracked
 * files (deploy.yml, notes.txt) and ignored ones (secrets.env, and a whole ignored workflow).
 */
export async function makeWorkTree(t: TestContext, extra: Record<string, string> = {}): Promise<string> {
  const dir = await tempDir(t);
  await git(dir, ['init', '-q', '-b', 'main']);
  await write(dir, {
    'README.md': '# app\n',
    '.gitignore': 'secrets.env\n.github/workflows/ignored.yml\n',
    '.github/workflows/ci.yml': CI_COMMITTED,
    '.github/workflows/docs.yml': DOCS_ONLY,
  });
  await git(dir, ['add', '-A']);
  await git(dir, ['commit', '-q', '-m', 'initial']);
  await write(dir, {
    '.github/workflows/ci.yml': CI_WORKING,
    '.github/workflows/deploy.yml': DEPLOY,
    '.github/workflows/ignored.yml': CI_COMMITTED,
    'notes.txt': 'untracked\n',
    'secrets.env': 'TOKEN=do-not-upload\n',
    ...extra,
  });
  return dir;
}

async function write(dir: string, files: Record<string, string>): Promise<void> {
  for (const [path, content] of Object.entries(files)) {
    await mkdir(join(dir, path, '..'), { recursive: true });
    await writeFile(join(dir, path), content);
  }
}

export interface Uploaded {
  readonly status: number;
  readonly body: Record<string, unknown>;
  readonly pack: PackResult;
}

/** Packs `dir` and streams it to `POST /api/v1/snapshots` as it is packed, as `svc run` will. */
export async function uploadWorkTree(h: LocalRunsHost, dir: string, repository = 'acme/app'): Promise<Uploaded> {
  const out = new PassThrough();
  const packing = packWorkingTree(dir, { out });
  const response = await fetch(`${h.base}/api/v1/snapshots?repository=${encodeURIComponent(repository)}`, {
    method: 'POST',
    headers: { ...h.auth, 'content-type': 'application/gzip' },
    body: Readable.toWeb(out) as ReadableStream<Uint8Array>,
    duplex: 'half',
  });
  const pack = await packing;
  return { status: response.status, body: (await response.json()) as Record<string, unknown>, pack };
}

/** Uploads a finished archive (or anything else) as the body of `POST /api/v1/snapshots`. */
export async function uploadBytes(h: LocalRunsHost, body: Buffer, query: string, contentType = 'application/x-tar'): Promise<{ status: number; body: Record<string, unknown> }> {
  const response = await fetch(`${h.base}/api/v1/snapshots${query}`, { method: 'POST', headers: { ...h.auth, 'content-type': contentType }, body });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

/** `POST /api/v1/runs` with this JSON body. */
export async function submitRun(h: LocalRunsHost, body: unknown): Promise<{ status: number; body: Record<string, unknown> }> {
  const response = await fetch(`${h.base}/api/v1/runs`, { method: 'POST', headers: { ...h.auth, 'content-type': 'application/json' }, body: JSON.stringify(body) });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

export interface RunView {
  readonly id: number;
  readonly status: string;
  readonly conclusion: string | null;
  readonly event: string;
  readonly ref: string;
  readonly sha: string;
  readonly trigger: string;
  readonly actor: string;
  readonly reason: string | null;
  readonly workflow: { readonly path: string; readonly name: string };
  readonly jobs: readonly { readonly name: string; readonly job_key: string; readonly status: string }[];
}

/** `GET /api/v1/runs/{id}`, the engine plugin's view of the run. */
export async function getRun(h: LocalRunsHost, runId: number): Promise<RunView> {
  const response = await fetch(`${h.base}/api/v1/runs/${runId}`, { headers: h.auth });
  if (response.status !== 200) throw new Error(`GET /api/v1/runs/${runId}: ${response.status} ${await response.text()}`);
  return (await response.json()) as RunView;
}
