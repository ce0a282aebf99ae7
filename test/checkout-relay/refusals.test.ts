/**
 * What the relay cannot serve, said so git and octokit users can act on it: a local run whose
 * snapshot the pruner dropped (404 naming the retention), a forge run when svc is connected to no
 * forge (503 naming SVC_FORGE_API_URL; forge-runs.test.ts has the forge), a job that is over (its token no longer opens anything: 401), a job
 * whose token lacks `contents: read` (404, as GitHub answers for a private repository), and
 * another repository than the run's (404, with GitHub's body where octokit asks for one).
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { getOctokit } from '@actions/github';
import { selectRuns } from '../../core/engine/index.js';
import { dispatchNext, RUNNER, WORKFLOW_PATH } from '../runner-protocol/worker-job.js';
import { operatorConfigEnv } from '../support/operator-config.js';
import { actionsCheckout, jobOf, localRunJob, relayHost } from './support.js';

const DAY_MS = 24 * 60 * 60 * 1000;

describe('checkout relay: refusals', () => {
  it('a pruned snapshot is a 404 that names the retention, for git and for the tarball', async (t) => {
    const h = await relayHost(t, { SVC_SNAPSHOT_RETENTION_SECS: '600' });
    const job = await localRunJob(t, h);
    assert.ok((await h.snapshots.prune(h.clock.now() + DAY_MS)) >= 1, 'the pruner dropped the snapshot');

    const { fetch: gitFetch } = await actionsCheckout(t, job);
    assert.notEqual(gitFetch.code, 0);
    assert.match(gitFetch.stderr, /HTTP\/1\.1 404/);
    assert.match(gitFetch.stderr, /no longer kept: snapshots are pruned 600 s after submission \(SVC_SNAPSHOT_RETENTION_SECS\)/);

    const tarball = await fetch(`${job.apiUrl}/repos/acme/app/tarball/${job.sha}`, { headers: { authorization: `Bearer ${job.token}` } });
    assert.equal(tarball.status, 404);
    assert.equal(((await tarball.json()) as { code: string }).code, 'snapshot_pruned');
  });

  it('a forge run on a svc connected to no forge is 503 forge_not_configured, naming the variables to set', async (t) => {
    const h = await relayHost(t);
    const sha = 'f'.repeat(40);
    const [selection] = await selectRuns({
      event: { name: 'push', payload: { ref: 'refs/heads/main', after: sha, repository: { full_name: 'acme/widgets' } }, ref: 'refs/heads/main', sha },
      repository: 'acme/widgets',
      actor: 'octo',
      trigger: 'webhook',
      workflows: [{ path: WORKFLOW_PATH, content: 'on: push\njobs:\n  build:\n    runs-on: self-hosted\n    steps:\n      - run: make\n' }],
      serverUrl: h.baseUrl,
    });
    assert.ok(selection?.kind === 'run');
    const run = await h.engine.createRun(selection.input);
    const job = jobOf(h, await dispatchNext(h), sha, run.id);

    const advertised = await fetch(`${h.baseUrl}/acme/widgets/info/refs?service=git-upload-pack`, { headers: { authorization: `Bearer ${job.token}` } });
    assert.equal(advertised.status, 503);
    assert.equal(advertised.headers.get('x-svc-error-code'), 'forge_not_configured');
    assert.match(await advertised.text(), /^run \d+ came from the forge \(webhook\), but svc is not connected to one: set SVC_FORGE_API_URL/);

    const tarball = await fetch(`${job.apiUrl}/repos/acme/widgets/tarball/${sha}`, { headers: { authorization: `Bearer ${job.token}` } });
    assert.equal(tarball.status, 503);
    assert.equal(((await tarball.json()) as { code: string }).code, 'forge_not_configured');
  });

  it("a token whose contents permission the operator's ceiling took away checks nothing out (404), git or tarball", async (t) => {
    const h = await relayHost(t, await operatorConfigEnv(t, '[token_permissions_ceiling]\ncontents = "none"\n'));
    const job = await localRunJob(t, h);
    const { fetch: gitFetch } = await actionsCheckout(t, job);
    assert.notEqual(gitFetch.code, 0);
    assert.match(gitFetch.stderr, /HTTP\/1\.1 404/);
    assert.match(gitFetch.stderr, /repository acme\/app not found: this job's token lacks 'contents: read'/);

    const tarball = await fetch(`${job.apiUrl}/repos/acme/app/tarball/${job.sha}`, { headers: { authorization: `Bearer ${job.token}` } });
    assert.equal(tarball.status, 404);
    assert.equal(((await tarball.json()) as { code: string }).code, 'repository_not_found');
  });

  it("a finished job's token opens nothing (401 with the Basic challenge)", async (t) => {
    const h = await relayHost(t);
    const job = await localRunJob(t, h);
    const auth = { authorization: `Bearer ${job.token}` };
    assert.equal((await fetch(`${h.baseUrl}/acme/app/info/refs?service=git-upload-pack`, { headers: auth })).status, 200);
    assert.ok(await h.engine.completeJob(job.job.assignment.job.id, RUNNER.runnerId, { outcome: 'success' }));
    const after = await fetch(`${h.baseUrl}/acme/app/info/refs?service=git-upload-pack`, { headers: auth });
    assert.equal(after.status, 401);
    assert.equal(after.headers.get('www-authenticate'), 'Basic realm="svc"');
    assert.match(await after.text(), /the job this token belongs to has finished \(success\)/);
  });

  it("another repository, asked for as actions/checkout's REST path does, is one 404 each that says what svc serves", async (t) => {
    const h = await relayHost(t);
    const job = await localRunJob(t, h);
    let requests = 0;
    const counted: typeof fetch = (input, init) => {
      requests += 1;
      return fetch(input, init);
    };
    // @actions/github's octokit, as actions/checkout builds it (getOctokit, baseUrl = github.api_url).
    const octokit = getOctokit(job.token, { baseUrl: job.apiUrl, request: { fetch: counted } });

    // github-api-helper.ts getDefaultBranch: checkout of another repository without a ref.
    const repository = await refusal(octokit.rest.repos.get({ owner: 'acme', repo: 'other' }));
    assert.equal(repository.status, 404);
    assert.deepEqual(Object.keys(repository.response.data).sort(), ['documentation_url', 'message', 'status']);
    assert.equal(repository.response.data.documentation_url, 'https://docs.github.com/rest');
    assert.equal(repository.response.data.status, '404');
    const message = repository.response.data.message;
    assert.match(message, /^Not Found: svc does not serve GET \/api\/v3\/repos\/acme\/other; under \/api\/v3 it serves only /);
    assert.match(message, /runner registration for config\.sh \(POST \/api\/v3\/actions\/runner-registration\)/);
    assert.match(message, /a running job's own repository as a tarball or zipball, with the job's token \(GET \/api\/v3\/repos\/\{owner\}\/\{repo\}\/tarball\[\/\{ref\}\]/);
    assert.match(message, /a job checks out any other repository from its forge$/);
    assert.equal(repository.message, `${message} - https://docs.github.com/rest`, 'what actions/checkout logs');
    assert.equal(requests, 1, 'octokit gives up at once: @actions/github has no retry plugin');

    // downloadArchive of that repository: the route exists, the repository is not the run's.
    const archive = await refusal(octokit.rest.repos.downloadTarballArchive({ owner: 'acme', repo: 'other', ref: 'main' }));
    assert.equal(archive.status, 404);
    assert.match(archive.message, /^repository acme\/other not found: this job's token reaches only its run's repository, acme\/app; check out other repositories from their forge/);
    assert.equal(requests, 2);

    // tryGetRepositoryObjectFormat (checkout v6+, for a ref that is not a full sha): an unknown route too.
    const hash = await refusal(octokit.request('GET /repos/{owner}/{repo}/hash-algorithm', { owner: 'acme', repo: 'app' }));
    assert.equal(hash.status, 404);
    assert.match(hash.response.data.message, /^Not Found: svc does not serve GET \/api\/v3\/repos\/acme\/app\/hash-algorithm;/);

    // Outside /api/v3 an unknown route keeps svc's own body.
    const native = await fetch(`${h.baseUrl}/api/v9/nothing`);
    assert.equal(native.status, 404);
    assert.deepEqual(await native.json(), { code: 'route_not_found', message: 'no route GET /api/v9/nothing' });
  });
});

interface OctokitRefusal {
  readonly status: number;
  readonly message: string;
  readonly response: { readonly data: { readonly message: string; readonly documentation_url: string; readonly status: string } };
}

/** The RequestError an octokit call rejects with (a resolved call fails the test). */
async function refusal(call: Promise<unknown>): Promise<OctokitRefusal> {
  const outcome = await call.then(
    () => undefined,
    (error: unknown) => error,
  );
  assert.ok(outcome instanceof Error && 'status' in outcome && 'response' in outcome, `a RequestError, not ${String(outcome)}`);
  return outcome as unknown as OctokitRefusal;
}
