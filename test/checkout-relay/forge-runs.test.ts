/**
 * A forge run checks out through the relay: a run created for a commit of the simulated forge
 * (the engine's own entry point, `selectRuns` + `createRun` with trigger `webhook`, as the webhook
 * plugin will), its jobs fetch with their job token, and svc fetches the commit from the forge's
 * git into the node's mirror with SVC_FORGE_TOKEN, which no job sees. actions/checkout's depth-1
 * fetch (v2, v0), its fetch-depth 0 (history and tags, as for local runs), `git clone`, the
 * tarball, and a four-job matrix whose concurrent checkouts cost the forge one fetch.
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { createPublicKey } from 'node:crypto';
import { describe, it, type TestContext } from 'node:test';
import { createFileCredentialStore } from '../../backends/credentials/index.js';
import { selectRuns } from '../../core/engine/index.js';
import { dispatchNext, WORKFLOW_PATH } from '../runner-protocol/worker-job.js';
import { storeForgeApp } from '../../plugins/forge/index.js';
import { runnerHost, type RunnerHost } from '../runner-protocol/runner-host.js';
import { startForgeSimulator, type ForgeSimulator } from '../support/forge-simulator/index.js';
import { tempDir } from '../support/services.js';
import { testRsaKeyPem } from '../support/test-rsa-keys.js';
import { actionsCheckout, basicHeader, jobOf, okGit, relayHost, type CheckoutJob } from './support.js';

const TOKEN = 'ghp_forge_relay_token';
const REPOSITORY = 'acme/widgets';

function workflow(jobs: number): string {
  const matrix = jobs > 1 ? `    strategy:\n      matrix:\n        shard: [${Array.from({ length: jobs }, (_, index) => index + 1).join(', ')}]\n` : '';
  return `on: push\njobs:\n  build:\n    runs-on: self-hosted\n${matrix}    steps:\n      - uses: actions/checkout@v4\n      - run: make\n`;
}

interface ForgeRun {
  readonly forge: ForgeSimulator;
  readonly h: RunnerHost;
  readonly sha: string;
  readonly runId: number;
}

/**
 * A private forge repository with two commits (v1 on the first, v2 on the second) and a run for
 * the second (or `runSha`). svc reads the forge with the PAT, or (`viaApp`) with no PAT and a
 * GitHub App installed on the repository, stored where `svc setup forge` stores Apps.
 */
async function forgeRun(t: TestContext, jobs = 1, runSha?: string, viaApp = false): Promise<ForgeRun> {
  // The simulator judges App JWTs and token expiry on the host's clock once there is a host.
  let now = (): number => Date.now();
  const forge = await startForgeSimulator(t, viaApp ? { now: () => now() } : { token: TOKEN });
  await forge.repositories.create(REPOSITORY, { files: { 'README.md': '# widgets\n', [WORKFLOW_PATH]: workflow(jobs) }, tags: ['v1'] }, { private: true });
  const second = await forge.repositories.commit(REPOSITORY, { files: { 'app.txt': 'second\n' }, tags: ['v2'] });
  const sha = runSha ?? second;
  const h = viaApp ? await appRelayHost(t, forge) : await relayHost(t, { SVC_FORGE_API_URL: forge.apiUrl, SVC_FORGE_TOKEN: TOKEN, SVC_FORGE_GIT_URL: forge.webUrl });
  now = () => h.clock.now();
  const [selection] = await selectRuns({
    event: { name: 'push', payload: { ref: 'refs/heads/main', after: sha, repository: { full_name: REPOSITORY } }, ref: 'refs/heads/main', sha },
    repository: REPOSITORY,
    actor: 'octo',
    trigger: 'webhook',
    workflows: [{ path: WORKFLOW_PATH, content: workflow(jobs) }],
    serverUrl: h.baseUrl,
  });
  assert.ok(selection?.kind === 'run', JSON.stringify(selection));
  const run = await h.engine.createRun(selection.input);
  return { forge, h, sha, runId: run.id };
}

/** A relay host with the forge plugin and App 101 installed on the repository (contents: read), and no PAT. */
async function appRelayHost(t: TestContext, forge: ForgeSimulator): Promise<RunnerHost> {
  const key = testRsaKeyPem();
  const publicKey = createPublicKey(key).export({ type: 'spki', format: 'pem' }).toString();
  forge.apps.add({ id: 101, slug: 'svc-acme', publicKey, installations: [{ id: 1001, account: 'acme', repositories: [REPOSITORY], permissions: { contents: 'read', metadata: 'read' } }] });
  const dataDir = join(await tempDir(t), 'data');
  await storeForgeApp(await createFileCredentialStore(join(dataDir, 'credentials')), { appId: 101, privateKey: key });
  return runnerHost(t, {
    plugins: ['local-runs', 'checkout-relay', 'forge'],
    env: { SVC_DATA_DIR: dataDir, SVC_CREDENTIAL_STORE: 'file', SVC_FORGE_API_URL: forge.apiUrl, SVC_FORGE_GIT_URL: forge.webUrl },
  });
}

async function takeJob(run: ForgeRun): Promise<CheckoutJob> {
  const job = jobOf(run.h, await dispatchNext(run.h), run.sha, run.runId);
  assert.ok(!JSON.stringify(job.job.message).includes(TOKEN), 'the job never sees the forge credential');
  return job;
}

describe('checkout relay: forge runs', () => {
  for (const protocol of ['2', '0'] as const) {
    it(`actions/checkout's depth-1 fetch gets the forge commit (protocol v${protocol}); svc fetched it once with its own credential`, async (t) => {
      const run = await forgeRun(t);
      const job = await takeJob(run);
      const { dir, fetch } = await actionsCheckout(t, job, { protocol, repository: REPOSITORY });
      assert.equal(fetch.code, 0, fetch.stderr);
      assert.equal((await okGit(dir, ['rev-parse', 'HEAD'])).trim(), run.sha);
      assert.equal((await okGit(dir, ['rev-list', '--count', 'HEAD'])).trim(), '1');
      assert.equal(await readFile(join(dir, 'app.txt'), 'utf8'), 'second\n');
      assert.equal((await okGit(dir, ['tag', '--list'])).trim(), '', 'a depth-1 fetch of the sha gets no tags');
      assert.equal(run.forge.gitFetches(REPOSITORY), 1);

      // Again (a rerun, the next step): the mirror has it, the forge is not asked.
      const again = await actionsCheckout(t, job, { protocol, repository: REPOSITORY });
      assert.equal(again.fetch.code, 0, again.fetch.stderr);
      assert.equal(run.forge.gitFetches(REPOSITORY), 1);
      assert.ok(run.forge.gitRequests.every((entry) => entry.status === 200), 'svc authenticated at once (no 401 round)');
    });
  }

  it('fetch-depth 0 gets the history and the tags into it; git clone checks out the run branch; only the run ref is advertised', async (t) => {
    const run = await forgeRun(t);
    const job = await takeJob(run);
    const origin = new URL(job.serverUrl).origin;
    const { dir, fetch } = await actionsCheckout(t, job, { repository: REPOSITORY });
    assert.equal(fetch.code, 0, fetch.stderr);
    // actions/checkout with fetch-depth: 0 (unshallow in a repository that has the depth-1 commit).
    await okGit(dir, ['-c', 'protocol.version=2', 'fetch', '--prune', '--no-recurse-submodules', '--unshallow', 'origin', '+refs/heads/*:refs/remotes/origin/*', '+refs/tags/*:refs/tags/*']);
    assert.equal((await okGit(dir, ['rev-list', '--count', 'HEAD'])).trim(), '2');
    assert.deepEqual((await okGit(dir, ['tag', '--list'])).trim().split('\n'), ['v1', 'v2']);
    assert.equal((await okGit(dir, ['describe', '--tags'])).trim(), 'v2');

    const clone = join(await tempDir(t), 'clone');
    await okGit('/', ['-c', `http.extraHeader=${basicHeader(job.token)}`, 'clone', '--quiet', `${origin}/${REPOSITORY}`, clone]);
    assert.equal((await okGit(clone, ['rev-parse', 'HEAD'])).trim(), run.sha);
    assert.equal((await okGit(clone, ['symbolic-ref', 'HEAD'])).trim(), 'refs/heads/main');
    const listed = await okGit('/', ['-c', `http.extraHeader=${basicHeader(job.token)}`, 'ls-remote', `${origin}/${REPOSITORY}`]);
    const names = listed.trim().split('\n').map((line) => line.split('\t')[1]);
    assert.deepEqual(names.sort(), ['HEAD', 'refs/heads/main', 'refs/tags/v1', 'refs/tags/v2']);
    assert.equal(run.forge.gitFetches(REPOSITORY), 1, 'one forge fetch for all of it');
  });

  it('the tarball of a forge run is the forge commit with the forge layout', async (t) => {
    const run = await forgeRun(t);
    const job = await takeJob(run);
    const response = await fetch(`${job.apiUrl}/repos/${REPOSITORY}/tarball/${run.sha}`, { headers: { authorization: `Bearer ${job.token}` } });
    assert.equal(response.status, 200, await response.clone().text());
    assert.equal(response.headers.get('content-type'), 'application/x-gzip');
    const archive = join(await tempDir(t), 'a.tar.gz');
    await writeFile(archive, Buffer.from(await response.arrayBuffer()));
    const entries = execFileSync('tar', ['-tzf', archive], { encoding: 'utf8' }).trim().split('\n');
    const top = `acme-widgets-${run.sha.slice(0, 7)}/`;
    assert.ok(entries.includes(`${top}app.txt`) && entries.includes(`${top}README.md`), entries.join(', '));
  });

  it('with a GitHub App installed on the repository and no PAT, svc fetches with an installation token narrowed to it', async (t) => {
    const run = await forgeRun(t, 1, undefined, true);
    const job = await takeJob(run);
    const { dir, fetch } = await actionsCheckout(t, job, { repository: REPOSITORY });
    assert.equal(fetch.code, 0, fetch.stderr);
    assert.equal((await okGit(dir, ['rev-parse', 'HEAD'])).trim(), run.sha);
    assert.equal(run.forge.gitFetches(REPOSITORY), 1);
    const minted = run.forge.apps.minted();
    assert.equal(minted.length, 1);
    assert.deepEqual(minted[0]?.repositories, [REPOSITORY]);
    assert.deepEqual(minted[0]?.permissions, { contents: 'read' });
    assert.ok(!JSON.stringify(job.job.message).includes(minted[0]?.token ?? 'no token'), 'the job never sees the installation token');
  });

  it('four jobs of one push checking out at once cost the forge one fetch', async (t) => {
    const run = await forgeRun(t, 4);
    const jobs = [await takeJob(run), await takeJob(run), await takeJob(run), await takeJob(run)];
    const checkouts = await Promise.all(jobs.map((job) => actionsCheckout(t, job, { repository: REPOSITORY })));
    for (const { fetch } of checkouts) assert.equal(fetch.code, 0, fetch.stderr);
    for (const { dir } of checkouts) assert.equal((await okGit(dir, ['rev-parse', 'HEAD'])).trim(), run.sha);
    assert.equal(run.forge.gitFetches(REPOSITORY), 1);
  });

  it('a forge commit that is gone is a 404 git shows, naming the commit; the forge down is a 503 naming it', async (t) => {
    // A commit the forge does not have (force-pushed away and collected before any job fetched it).
    const run = await forgeRun(t, 1, 'd'.repeat(40));
    const job = await takeJob(run);
    const gone = await actionsCheckout(t, job, { repository: REPOSITORY });
    assert.notEqual(gone.fetch.code, 0);
    assert.match(gone.fetch.stderr, /HTTP\/1\.1 404/);
    assert.match(gone.fetch.stderr, new RegExp(`commit ${run.sha} is not on the forge's git`));

    await run.forge.stop();
    const response = await fetch(`${job.apiUrl}/repos/${REPOSITORY}/tarball/${run.sha}`, { headers: { authorization: `Bearer ${job.token}` } });
    assert.equal(response.status, 503);
    const body = (await response.json()) as { code: string; message: string };
    assert.equal(body.code, 'forge_unavailable');
    assert.match(body.message, /^the forge's git at http:\/\/127\.0\.0\.1:\d+ is unavailable \(git fetch of acme\/widgets: /);
  });
});
