/**
 * A local run's commit is the user's, as a user meets it: `svc serve` with the built-in pool and
 * the checkout relay, `svc run` in a git repository with a few hundred commits and tags, and a
 * job that checks the repository out as actions/checkout does with `fetch-depth: 0` and
 * reports `git log --oneline | wc -l`, `git describe --tags` and `GITHUB_SHA`, compared with the
 * same commands in the user's repository; clean, then dirty. Once per isolation backend, the
 * namespace one skipped (with the reason printed) only where the kernel refuses namespaces.
 */
import assert from 'node:assert/strict';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { RunView } from '../../plugins/engine/run-view.js';
import { createNamespaceBackend } from '../../plugins/vm-pool/backends/namespace/index.js';
import { startServerWithPool, svcRun, useBundle, type PoolServer, type Spawned } from '../local-runs/run-cli-harness.js';
import { git, isolateGitConfig, writeHistory } from '../snapshots/support.js';
import { api } from '../vm-pool/support.js';
import { HISTORY } from './pool-workflows.js';

isolateGitConfig();
after(useBundle('e2e-history'));

const silent = { info: () => undefined, warn: () => undefined, debug: () => undefined, error: () => undefined };
const probe = await createNamespaceBackend({ logger: silent, dataDir: tmpdir() }).probe();
const SKIP = { process: false, namespace: probe.ok ? false : `namespace guests unavailable here: ${probe.reason}` } as const;

/** 300 commits, an annotated tag every 50 and a lightweight one every 70, the workflow committed last; origin acme/history. */
async function userRepository(): Promise<{ dir: string; remove: () => Promise<void> }> {
  const dir = await mkdtemp(join(tmpdir(), 'svc-e2e-history-'));
  await git(dir, ['init', '-q', '-b', 'main']);
  await git(dir, ['remote', 'add', 'origin', 'https://github.com/acme/history.git']);
  await writeHistory(dir, { commits: 300, annotatedEvery: 50, lightweightEvery: 70 });
  await mkdir(join(dir, '.github', 'workflows'), { recursive: true });
  await writeFile(join(dir, '.github', 'workflows', 'history.yml'), HISTORY);
  await git(dir, ['add', '-A']);
  await git(dir, ['commit', '-q', '-m', 'the workflow']);
  await git(dir, ['config', 'user.name', 'Ada Lovelace']);
  await git(dir, ['config', 'user.email', 'ada@example.com']);
  return { dir, remove: () => rm(dir, { recursive: true, force: true }) };
}

interface Sent {
  readonly objects: number;
  /** Bytes as the note rounds them. */
  readonly bytes: number;
}

/** What `svc run`'s note says it sent: nothing when the server had it. */
function sentOf(run: Spawned): Sent {
  const note = /^svc run: commit [0-9a-f]{12} of .*; (?:the server had it|sent (\d+) objects \(([\d.]+) (B|KiB|MiB)\))$/m.exec(run.stderr());
  assert.ok(note !== null, run.stderr());
  if (note[1] === undefined) return { objects: 0, bytes: 0 };
  const unit = { B: 1, KiB: 1024, MiB: 1024 * 1024 }[note[3] as 'B' | 'KiB' | 'MiB'];
  return { objects: Number(note[1]), bytes: Number(note[2]) * unit };
}

async function outputsOf(server: PoolServer, run: Spawned): Promise<Record<string, string>> {
  const id = /^svc run: run (\d+) of /m.exec(run.stderr())?.[1];
  assert.ok(id !== undefined, run.stderr());
  const view = await api<RunView>(server.base, `/api/v1/runs/${id}`);
  const job = view.jobs.find((candidate) => candidate.name === 'history');
  assert.ok(job !== undefined);
  return job.outputs as Record<string, string>;
}

const local = async (dir: string, args: readonly string[]) => (await git(dir, args)).trim();

// The guest's path to the relay is the same as in pool-run's checkout test on both backends:
// this runs on the default backend (namespace), or on process where namespace cannot run.
for (const backend of [SKIP.namespace === false ? 'namespace' : 'process'] as const) {
  const skip = SKIP[backend];
  if (skip !== false) process.stderr.write(`\n!! ${skip}\n\n`);

  describe(`svc run sends the user's commit, ${backend} backend`, { skip }, () => {
    let server: PoolServer;
    before(async () => {
      server = await startServerWithPool(backend, { warm: 1, max: 2 });
    });
    after(async () => {
      await server.stop();
    });

    it('clean, then dirty: GITHUB_SHA, git log and git describe --tags in the job against the local repository', async (t) => {
      const repo = await userRepository();
      t.after(repo.remove);
      const head = await local(repo.dir, ['rev-parse', 'HEAD']);
      const commits = Number(await local(repo.dir, ['rev-list', '--count', 'HEAD']));
      assert.equal((await local(repo.dir, ['log', '--oneline'])).split('\n').length, commits);

      const clean = svcRun([], server.cliEnv, repo.dir);
      assert.equal(await clean.exited, 0, `${clean.stdout()}${clean.stderr()}`);
      const first = sentOf(clean);
      assert.ok(first.objects > 600, `the whole history went: ${JSON.stringify(first)}`);
      const cleanOut = await outputsOf(server, clean);
      assert.equal(cleanOut.sha, head, 'GITHUB_SHA is the local HEAD');
      assert.equal(cleanOut.head, head);
      assert.equal(cleanOut.count, String(commits));
      assert.equal(cleanOut.describe, await local(repo.dir, ['describe', '--tags']));
      assert.equal(cleanOut.depth1, '1', 'the default fetch-depth stays one commit');

      const again = svcRun([], server.cliEnv, repo.dir);
      assert.equal(await again.exited, 0, `${again.stdout()}${again.stderr()}`);
      assert.deepEqual(sentOf(again), { objects: 0, bytes: 0 }, 'the server had it all');
      assert.equal((await outputsOf(server, again)).sha, head);

      await writeFile(join(repo.dir, 'file-3.txt'), 'changed, not committed\n');
      await writeFile(join(repo.dir, 'untracked.txt'), 'new\n');
      const dirty = svcRun([], server.cliEnv, repo.dir);
      assert.equal(await dirty.exited, 0, `${dirty.stdout()}${dirty.stderr()}`);
      const change = sentOf(dirty);
      assert.ok(change.objects > 0 && change.objects <= 6 && change.bytes < first.bytes / 20, `only the change: ${JSON.stringify(change)} after ${JSON.stringify(first)}`);
      const dirtyOut = await outputsOf(server, dirty);
      assert.notEqual(dirtyOut.sha, head);
      assert.equal(dirtyOut.head, dirtyOut.sha);
      assert.equal(dirtyOut.parent, head, "the run's commit sits on the local HEAD");
      assert.equal(dirtyOut.count, String(commits + 1));
      const [, tag, distance] = /^(.*)-(\d+)-g[0-9a-f]+$/.exec(await local(repo.dir, ['describe', '--tags', '--long'])) ?? [];
      assert.match(dirtyOut.describe ?? '', new RegExp(`^${tag ?? ''}-${Number(distance) + 1}-g${(dirtyOut.sha ?? '').slice(0, 7)}`));
      assert.equal(dirtyOut.author, 'Ada Lovelace <ada@example.com>');
      assert.equal(dirtyOut.file, 'changed, not committed');
      assert.deepEqual((await git(repo.dir, ['status', '--porcelain'])).split('\n').filter(Boolean), [' M file-3.txt', '?? untracked.txt'], 'the changes are still uncommitted');
      assert.equal(await local(repo.dir, ['rev-parse', 'HEAD']), head, 'the local repository did not move');
    });
  });
}
