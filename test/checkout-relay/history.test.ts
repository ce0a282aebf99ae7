/**
 * The relay serves a local run's history: the run's commit is the user's (sent by `svc run`'s
 * upload code from a git work tree), and actions/checkout with `fetch-depth: 0` gets every
 * commit and tag reachable from it, so `git log` and `git describe --tags` answer as they do in
 * the user's repository; the default depth-1 fetch still gets one commit and no tags.
 */
import assert from 'node:assert/strict';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, it, type TestContext } from 'node:test';
import { findLocalRepository } from '../../plugins/local-runs/cli/local-repository.js';
import { uploadSnapshot } from '../../plugins/local-runs/cli/upload-snapshot.js';
import { submitRun } from '../local-runs/support.js';
import { dispatchNext } from '../runner-protocol/worker-job.js';
import { git, writeHistory } from '../snapshots/support.js';
import { tempDir } from '../support/services.js';
import { basicHeader, jobOf, okGit, relayHost, REPOSITORY, WORKFLOW, type CheckoutJob } from './support.js';

const CI = 'on: push\njobs:\n  build:\n    runs-on: self-hosted\n    steps:\n      - run: make test\n';

/** 60 commits with annotated v1.<n> every 20 and light-<n> every 25, then the workflow: acme/app. */
async function userRepository(t: TestContext): Promise<string> {
  const dir = await tempDir(t);
  await git(dir, ['init', '-q', '-b', 'main']);
  await git(dir, ['remote', 'add', 'origin', `https://github.com/${REPOSITORY}.git`]);
  await writeHistory(dir, { commits: 60, annotatedEvery: 20, lightweightEvery: 25 });
  await mkdir(join(dir, '.github', 'workflows'), { recursive: true });
  await writeFile(join(dir, WORKFLOW), CI);
  await git(dir, ['add', '-A']);
  await git(dir, ['commit', '-q', '-m', 'workflow']);
  await git(dir, ['config', 'user.name', 'Ada']);
  await git(dir, ['config', 'user.email', 'ada@example.com']);
  return dir;
}

/** `svc run`'s upload and submission from `dir`, then the job as its runner takes it. */
async function runFrom(h: Awaited<ReturnType<typeof relayHost>>, dir: string): Promise<CheckoutJob> {
  const uploaded = await uploadSnapshot({ baseUrl: h.baseUrl, token: h.systemToken }, await findLocalRepository(dir));
  assert.equal(uploaded.kind, 'commit');
  const local = { host: h.host, base: h.baseUrl, engine: h.engine, snapshots: h.snapshots, clock: h.clock, auth: { authorization: `Bearer ${h.systemToken}` } };
  const submitted = await submitRun(local, { repository: REPOSITORY, snapshot: uploaded.sha, workflow: WORKFLOW });
  assert.equal(submitted.status, 201, JSON.stringify(submitted.body));
  const runId = Number((submitted.body['runs'] as { run_id: number }[])[0]?.run_id);
  return jobOf(h, await dispatchNext(h), uploaded.sha, runId);
}

/** actions/checkout's steps for `fetch-depth: 0` (every branch and tag), or its default depth-1 fetch of the sha. */
async function checkout(t: TestContext, job: CheckoutJob, depth: 0 | 1): Promise<string> {
  const dir = await tempDir(t);
  const origin = new URL(job.serverUrl).origin;
  await okGit(dir, ['init', '-q', dir]);
  await okGit(dir, ['remote', 'add', 'origin', `${origin}/${REPOSITORY}`]);
  await okGit(dir, ['config', '--local', `http.${origin}/.extraheader`, basicHeader(job.token)]);
  const specs = depth === 0 ? ['+refs/heads/*:refs/remotes/origin/*', '+refs/tags/*:refs/tags/*'] : ['--no-tags', '--depth=1', `+${job.sha}:refs/remotes/origin/main`];
  await okGit(dir, ['-c', 'protocol.version=2', 'fetch', '--prune', '--no-recurse-submodules', 'origin', ...specs]);
  await okGit(dir, ['checkout', '-q', '--force', '-B', 'main', 'refs/remotes/origin/main']);
  return dir;
}

const lines = (text: string) => text.trim().split('\n').filter(Boolean);

describe('checkout relay: the history of a local run', () => {
  it('clean tree: fetch-depth 0 gets the whole history and the tags; git log and describe answer as locally', async (t) => {
    const h = await relayHost(t);
    const user = await userRepository(t);
    const job = await runFrom(h, user);
    assert.equal(job.sha, (await git(user, ['rev-parse', 'HEAD'])).trim(), 'GITHUB_SHA is HEAD');
    const full = await checkout(t, job, 0);
    assert.equal((await okGit(full, ['rev-parse', 'HEAD'])).trim(), job.sha);
    assert.equal(lines(await okGit(full, ['log', '--oneline'])).length, lines(await git(user, ['log', '--oneline'])).length);
    assert.equal((await okGit(full, ['describe', '--tags'])).trim(), (await git(user, ['describe', '--tags'])).trim());
    assert.equal((await okGit(full, ['describe'])).trim(), (await git(user, ['describe'])).trim(), 'annotated tags too');
    assert.deepEqual(lines(await okGit(full, ['tag', '--list'])).sort(), lines(await git(user, ['tag', '--list'])).sort());
    assert.equal((await okGit(full, ['cat-file', '-t', 'v1.40'])).trim(), 'tag', 'an annotated tag stays one');
    assert.equal((await okGit(full, ['rev-parse', '--is-shallow-repository'])).trim(), 'false');

    const shallow = await checkout(t, job, 1);
    assert.equal((await okGit(shallow, ['rev-list', '--count', 'HEAD'])).trim(), '1', 'the default depth stays one commit');
    assert.deepEqual(lines(await okGit(shallow, ['tag', '--list'])), []);
  });

  it('dirty tree: the run commit sits on HEAD, so the job sees one commit more than the user and describes it from the same tag', async (t) => {
    const h = await relayHost(t);
    const user = await userRepository(t);
    await writeFile(join(user, 'file-1.txt'), 'uncommitted\n');
    const job = await runFrom(h, user);
    const head = (await git(user, ['rev-parse', 'HEAD'])).trim();
    assert.notEqual(job.sha, head);
    const full = await checkout(t, job, 0);
    assert.equal((await okGit(full, ['rev-parse', 'HEAD^'])).trim(), head, "the run commit's parent is HEAD");
    assert.equal(lines(await okGit(full, ['log', '--oneline'])).length, lines(await git(user, ['log', '--oneline'])).length + 1);
    const [tag, distance] = /^(.*)-(\d+)-g[0-9a-f]+$/.exec((await git(user, ['describe', '--tags', '--long'])).trim())?.slice(1) ?? [];
    assert.match((await okGit(full, ['describe', '--tags', '--long'])).trim(), new RegExp(`^${tag ?? ''}-${Number(distance) + 1}-g${job.sha.slice(0, 7)}`));
    assert.equal((await okGit(full, ['log', '-1', '--format=%an <%ae>'])).trim(), 'Ada <ada@example.com>');
    assert.equal((await okGit(full, ['show', 'HEAD:file-1.txt'])), 'uncommitted\n');
  });

  it('a shallow clone: a job fetches the history that was sent with a depth, or all of it accepting the shallow boundary', async (t) => {
    const h = await relayHost(t);
    const origin = await userRepository(t);
    const user = join(await tempDir(t), 'app');
    await git('/', ['clone', '-q', '--depth=10', '--no-local', `file://${origin}`, user]);
    await git(user, ['remote', 'set-url', 'origin', `https://github.com/${REPOSITORY}.git`]);
    const job = await runFrom(h, user);
    const one = await checkout(t, job, 1);
    assert.equal((await okGit(one, ['rev-list', '--count', 'HEAD'])).trim(), '1');
    // What actions/checkout does for fetch-depth: 5.
    const five = await tempDir(t);
    const url = `${new URL(job.serverUrl).origin}/${REPOSITORY}`;
    const auth = ['-c', `http.extraHeader=${basicHeader(job.token)}`];
    await okGit(five, ['init', '-q']);
    await okGit(five, [...auth, 'fetch', '-q', '--no-tags', '--depth=5', url, `+${job.sha}:refs/remotes/origin/main`]);
    assert.equal((await okGit(five, ['rev-list', '--count', 'refs/remotes/origin/main'])).trim(), '5');
    // Without a depth, git takes a shallow history only when told to (--update-shallow); the clone is marked shallow where it stops.
    const all = await tempDir(t);
    await okGit(all, ['init', '-q']);
    await okGit(all, [...auth, 'fetch', '-q', '--update-shallow', url, '+refs/heads/*:refs/remotes/origin/*', '+refs/tags/*:refs/tags/*']);
    assert.equal((await okGit(all, ['rev-list', '--count', 'refs/remotes/origin/main'])).trim(), '10');
    assert.equal((await okGit(all, ['rev-parse', '--is-shallow-repository'])).trim(), 'true');
    const cloned = join(await tempDir(t), 'clone');
    await okGit('/', [...auth, 'clone', '-q', url, cloned]);
    assert.equal((await okGit(cloned, ['rev-list', '--count', 'HEAD'])).trim(), '10', 'a clone takes it as it is');
  });
});
