/**
 * What the relay cannot serve, said so git and octokit users can act on it: a local run whose
 * snapshot the pruner dropped (404 naming the retention), a forge run whose commit never was in
 * the snapshot store (501), and a job that is over (its token no longer opens anything: 401).
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { selectRuns } from '../../core/engine/index.js';
import { dispatchNext, RUNNER, WORKFLOW_PATH } from '../runner-protocol/worker-job.js';
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

  it('a forge run (its commit is not in the snapshot store) is 501 not_implemented', async (t) => {
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
    assert.equal(advertised.status, 501);
    assert.equal(advertised.headers.get('x-svc-error-code'), 'not_implemented');
    assert.match(await advertised.text(), /^checkout relay for forge runs is not implemented yet\n.*came from the forge/);

    const tarball = await fetch(`${job.apiUrl}/repos/acme/widgets/tarball/${sha}`, { headers: { authorization: `Bearer ${job.token}` } });
    assert.equal(tarball.status, 501);
    assert.deepEqual(((await tarball.json()) as { code: string; details: { feature: string } }).details.feature, 'checkout relay for forge runs');
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
    assert.match(await after.text(), /not running/);
  });
});
