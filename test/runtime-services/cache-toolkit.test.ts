/**
 * The cache with the real, unmodified `@actions/cache` in a job step's process: v2 (Twirp +
 * Azure block uploads) as the job message switches it on, and v1 (`_apis/artifactcache`);
 * exact and restore-key hits, scope isolation by ref (own ref, then the default branch, never a
 * sibling branch), and the job's cache mode enforced by the server.
 */
import assert from 'node:assert/strict';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test, type TestContext } from 'node:test';
import type { RunOptions } from './job-steps.js';
import { dispatch, runStep, startRun, stepDirs, stepEnv } from './job-steps.js';
import { onSqliteOnly, runtimeHost, STORES, type RuntimeHost } from './runtime-host.js';

const WORKFLOW = `on: [push, pull_request, issue_comment]
jobs:
  build:
    runs-on: [self-hosted, linux]
    steps:
      - run: make
`;

interface Job {
  readonly env: Record<string, string>;
  readonly workspace: string;
}

/** A job of a fresh run for `options`, its step env, and its workspace. */
async function job(t: TestContext, h: RuntimeHost, options: RunOptions = {}, env: Record<string, string> = {}): Promise<Job> {
  await startRun(h, WORKFLOW, options);
  const dispatched = await dispatch(h);
  const dirs = stepDirs(t);
  return { env: { ...stepEnv(dispatched.message, dirs), ...env }, workspace: dirs.workspace };
}

function writeTree(workspace: string, content: string): void {
  mkdirSync(join(workspace, 'deps'), { recursive: true });
  writeFileSync(join(workspace, 'deps', 'lib.txt'), content);
  writeFileSync(join(workspace, 'deps', 'big.bin'), Buffer.alloc(3 * 1024 * 1024, content));
}

async function save(j: Job, key: string, content: string): Promise<{ id: number; v2: boolean }> {
  writeTree(j.workspace, content);
  return (await runStep<{ id: number; v2: boolean }>(j.env, 'cache-save', { paths: ['deps'], key })).result;
}

async function restore(j: Job, key: string, restoreKeys: string[] = []): Promise<{ key: string | null; content: string | undefined; output: string }> {
  rmSync(join(j.workspace, 'deps'), { recursive: true, force: true });
  const { result, output } = await runStep<{ key: string | null }>(j.env, 'cache-restore', { paths: ['deps'], key, restoreKeys });
  let content: string | undefined;
  try {
    content = readFileSync(join(j.workspace, 'deps', 'lib.txt'), 'utf8');
  } catch {
    content = undefined;
  }
  return { key: result.key, content, output };
}


for (const store of STORES) {
  const wireTest = onSqliteOnly(store.kind);
  describe(`@actions/cache against svc (${store.kind})`, { skip: store.skip }, () => {
    wireTest('v2: save, then an exact hit and a restore-key hit restore the files', async (t) => {
      const h = await runtimeHost(t, store.kind);
      const saver = await job(t, h);
      assert.equal(saver.env['ACTIONS_CACHE_SERVICE_V2'], 'True', 'the job message switches cache v2 on');
      assert.match(saver.env['GITHUB_SERVER_URL'] ?? '', /^http:\/\/svc\.localhost:\d+$/, 'github.server_url passes the toolkit host gate');
      const saved = await save(saver, 'deps-linux-abc', 'first');
      assert.equal(saved.v2, true);
      assert.ok(saved.id > 0, `the save returns the entry id, got ${saved.id}`);

      const reader = await job(t, h);
      const exact = await restore(reader, 'deps-linux-abc', ['deps-linux-']);
      assert.deepEqual([exact.key, exact.content], ['deps-linux-abc', 'first']);
      const partial = await restore(reader, 'deps-linux-xyz', ['deps-linux-']);
      assert.deepEqual([partial.key, partial.content], ['deps-linux-abc', 'first']);
      assert.match(partial.output, /Cache hit for restore-key: deps-linux-abc/);
      const miss = await restore(reader, 'deps-mac-abc', ['deps-mac-']);
      assert.deepEqual([miss.key, miss.content], [null, undefined]);
    });

    test('v2: a restore key picks the newest matching entry; a second save of a key is refused, not an error', async (t) => {
      const h = await runtimeHost(t, store.kind);
      const saver = await job(t, h);
      await save(saver, 'npm-1', 'older');
      h.clock.advance(1000);
      await save(saver, 'npm-2', 'newer');
      const again = await save(saver, 'npm-2', 'other');
      assert.equal(again.id, -1, 'the entry exists: the toolkit reports no save');
      const reader = await job(t, h);
      const hit = await restore(reader, 'npm-3', ['npm-']);
      assert.deepEqual([hit.key, hit.content], ['npm-2', 'newer']);
    });

    test('scopes: a branch reads its own and the default branch entries, never a sibling branch', async (t) => {
      const h = await runtimeHost(t, store.kind);
      await save(await job(t, h, { ref: 'refs/heads/main' }), 'from-main', 'main');
      await save(await job(t, h, { ref: 'refs/heads/feature-a' }), 'from-a', 'feature-a');

      const featureB = await job(t, h, { ref: 'refs/heads/feature-b' });
      const sibling = await restore(featureB, 'from-a');
      assert.deepEqual([sibling.key, sibling.content], [null, undefined], "feature-b does not see feature-a's entry");
      const fromDefault = await restore(featureB, 'from-main');
      assert.deepEqual([fromDefault.key, fromDefault.content], ['from-main', 'main'], "feature-b falls back to main's entry");

      const own = await restore(await job(t, h, { ref: 'refs/heads/feature-a' }), 'from-a');
      assert.deepEqual([own.key, own.content], ['from-a', 'feature-a']);
      const mainReader = await restore(await job(t, h, { ref: 'refs/heads/main' }), 'from-a');
      assert.equal(mainReader.key, null, 'the default branch does not read a child branch');
    });

    test('scopes: a pull request reads its base branch; another repository sees nothing', async (t) => {
      const h = await runtimeHost(t, store.kind);
      await save(await job(t, h, { ref: 'refs/heads/release' }), 'rel', 'release');
      const pr = await job(t, h, {
        ref: 'refs/pull/7/merge',
        event: 'pull_request',
        payload: { action: 'opened', number: 7, pull_request: { number: 7, base: { ref: 'release' }, head: { ref: 'topic' } } },
      });
      const hit = await restore(pr, 'rel');
      assert.deepEqual([hit.key, hit.content], ['rel', 'release']);
      const other = await restore(await job(t, h, { ref: 'refs/heads/release', repository: 'acme/other' }), 'rel');
      assert.equal(other.key, null);
    });

    wireTest('v1 (no ACTIONS_CACHE_SERVICE_V2): chunked save and restore through _apis/artifactcache', async (t) => {
      const h = await runtimeHost(t, store.kind);
      const saver = await job(t, h);
      delete saver.env['ACTIONS_CACHE_SERVICE_V2'];
      const saved = await save(saver, 'v1-key', 'over-v1');
      assert.equal(saved.v2, false);
      assert.ok(saved.id > 0, `the v1 save returns the cache id, got ${saved.id}`);
      const reader = await job(t, h);
      delete reader.env['ACTIONS_CACHE_SERVICE_V2'];
      const hit = await restore(reader, 'v1-nope', ['v1-']);
      assert.deepEqual([hit.key, hit.content], ['v1-key', 'over-v1']);
      const viaV2 = await restore(await job(t, h), 'v1-key');
      assert.deepEqual([viaV2.key, viaV2.content], ['v1-key', 'over-v1'], 'one store behind both wires');
    });

    wireTest('cache mode: an issue_comment job reads but its writes are denied by the server, even when the client does not check', async (t) => {
      const h = await runtimeHost(t, store.kind);
      await save(await job(t, h), 'shared', 'trusted');
      const untrusted = await job(t, h, { event: 'issue_comment', payload: { action: 'created', issue: { number: 1 }, comment: { body: 'hi' } } });
      assert.equal(untrusted.env['ACTIONS_CACHE_MODE'], 'read', 'the runner is told read');
      const hit = await restore(untrusted, 'shared');
      assert.equal(hit.key, 'shared');
      // A client that ignores ACTIONS_CACHE_MODE still cannot write.
      delete untrusted.env['ACTIONS_CACHE_MODE'];
      writeTree(untrusted.workspace, 'poison');
      const { result, output } = await runStep<{ id: number }>(untrusted.env, 'cache-save', { paths: ['deps'], key: 'poisoned' });
      assert.equal(result.id, -1);
      assert.match(output, /cache write denied/);
      const after = await restore(await job(t, h), 'poisoned');
      assert.equal(after.key, null);
    });
  });
}
