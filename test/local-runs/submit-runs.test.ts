import assert from 'node:assert/strict';
import { describe, it, type TestContext } from 'node:test';
import { isolateGitConfig } from '../snapshots/support.js';
import { succeed, testRunner } from '../support/test-runner.js';
import { getRun, localRunsHost, makeWorkTree, submitRun, uploadWorkTree, type LocalRunsHost } from './support.js';

isolateGitConfig();

const CI = '.github/workflows/ci.yml';

/** A host with the standard work tree uploaded; the snapshot's sha. */
async function uploaded(t: TestContext, extra: Record<string, string> = {}): Promise<{ h: LocalRunsHost; sha: string }> {
  const h = await localRunsHost(t);
  const { status, body } = await uploadWorkTree(h, await makeWorkTree(t, extra));
  assert.equal(status, 201, JSON.stringify(body));
  return { h, sha: String(body['sha']) };
}

interface RunsAnswer {
  readonly runs: readonly { readonly run_id: number; readonly workflow: string; readonly status: string; readonly url: string; readonly warnings: readonly string[] }[];
  readonly not_triggered: readonly unknown[];
  readonly invalid: readonly unknown[];
}

/** Submits and expects one created run; its id. */
async function createdRun(h: LocalRunsHost, body: Record<string, unknown>): Promise<number> {
  const { status, body: answer } = await submitRun(h, body);
  assert.equal(status, 201, JSON.stringify(answer));
  const { runs, not_triggered: notTriggered, invalid } = answer as unknown as RunsAnswer;
  assert.equal(runs.length, 1);
  assert.deepEqual([notTriggered, invalid], [[], []]);
  const run = runs[0];
  assert.ok(run);
  return run.run_id;
}

function jobTable(jobs: readonly { readonly name: string; readonly status: string }[]): string[] {
  return jobs.map((job) => `${job.name}: ${job.status}`);
}

describe('POST /api/v1/runs: a workflow of the working tree', () => {
  it('runs the snapshot as the working tree has it: uncommitted jobs and untracked reusable workflows included', async (t) => {
    const { h, sha } = await uploaded(t);
    const { status, body } = await submitRun(h, { repository: 'acme/app', snapshot: sha, workflow: CI });
    assert.equal(status, 201, JSON.stringify(body));
    const answer = body as unknown as RunsAnswer;
    const [created] = answer.runs;
    assert.ok(created);
    assert.deepEqual({ ...created, run_id: 0 }, { run_id: 0, workflow: CI, status: 'queued', url: `${h.base}/api/v1/runs/${created.run_id}`, warnings: [] });

    const run = await getRun(h, created.run_id);
    assert.deepEqual(
      { event: run.event, ref: run.ref, sha: run.sha, trigger: run.trigger, actor: run.actor, workflow: run.workflow.path, name: run.workflow.name },
      { event: 'push', ref: 'refs/heads/main', sha, trigger: 'local', actor: 'local', workflow: CI, name: 'CI' },
    );
    assert.deepEqual(jobTable(run.jobs).sort(), ['build: queued', 'call / deploy: pending', 'lint: queued', 'test: pending']);
  });

  it('keeps only the job asked for and the jobs it needs', async (t) => {
    const { h, sha } = await uploaded(t);
    const onlyTest = await createdRun(h, { repository: 'acme/app', snapshot: sha, workflow: CI, job: 'test' });
    assert.deepEqual((await getRun(h, onlyTest)).jobs.map((j) => j.job_key).sort(), ['build', 'test']);
    const call = await createdRun(h, { repository: 'acme/app', snapshot: sha, workflow: CI, job: 'call' });
    assert.deepEqual((await getRun(h, call)).jobs.map((j) => j.job_key).sort(), ['build', 'call/deploy', 'test']);
    const lint = await createdRun(h, { repository: 'acme/app', snapshot: sha, workflow: CI, job: 'lint' });
    assert.deepEqual((await getRun(h, lint)).jobs.map((j) => j.job_key), ['lint']);
    const two = await createdRun(h, { repository: 'acme/app', snapshot: sha, workflow: CI, job: ['test', 'lint'] });
    assert.deepEqual((await getRun(h, two)).jobs.map((j) => j.job_key).sort(), ['build', 'lint', 'test']);
    const oneUnknown = await submitRun(h, { repository: 'acme/app', snapshot: sha, workflow: CI, job: ['lint', 'nope'] });
    assert.equal(oneUnknown.status, 404);
    assert.match(String(oneUnknown.body['message']), /has no job 'nope'/);
    const unknown = await submitRun(h, { repository: 'acme/app', snapshot: sha, workflow: CI, job: 'nope' });
    assert.equal(unknown.status, 404);
    assert.equal(unknown.body['code'], 'job_not_found');
    assert.match(String(unknown.body['message']), /has no job 'nope' \(jobs: /);
  });

  it('invents no pull-request fields for a local pull_request, and merges the payload it is given', async (t) => {
    const { h, sha } = await uploaded(t);
    // Only the activity type, which the default `types:` filter reads; nothing about a pull request.
    const bare = await createdRun(h, { repository: 'acme/app', snapshot: sha, workflow: CI, event: 'pull_request', actor: 'ada', payload: { action: 'opened' } });
    const run = await h.engine.getRun(bare);
    assert.ok(run);
    assert.equal(run.event, 'pull_request');
    assert.equal(run.ref, 'refs/heads/main');
    assert.equal(run.sha, sha);
    assert.deepEqual(run.payload, {
      action: 'opened',
      repository: { full_name: 'acme/app', name: 'app', owner: { login: 'acme' }, default_branch: 'main' },
      sender: { login: 'ada' },
    });

    const given = await createdRun(h, {
      repository: 'acme/app',
      snapshot: sha,
      workflow: CI,
      event: 'pull_request',
      payload: { action: 'synchronize', number: 7, pull_request: { number: 7, base: { ref: 'main' }, head: { ref: 'feature' } } },
    });
    const withPayload = await h.engine.getRun(given);
    assert.equal(withPayload?.ref, 'refs/pull/7/merge');
    assert.equal(withPayload?.sha, sha, 'the run always checks out the snapshot');
    assert.deepEqual((withPayload?.payload as { pull_request?: unknown }).pull_request, { number: 7, base: { ref: 'main' }, head: { ref: 'feature' } });
  });

  it('passes workflow_dispatch inputs, and applies branches: to the base and paths: to changed_files', async (t) => {
    const { h, sha } = await uploaded(t);
    const dispatched = await createdRun(h, { repository: 'acme/app', snapshot: sha, workflow: CI, event: 'workflow_dispatch', inputs: { level: 'debug' } });
    assert.deepEqual((((await h.engine.getRun(dispatched))?.payload ?? {}) as { inputs?: unknown }).inputs, { level: 'debug' });

    const develop = await submitRun(h, { repository: 'acme/app', snapshot: sha, workflow: CI, base: 'develop' });
    assert.equal(develop.status, 422, 'branches: [main] does not take a push to develop');
    assert.equal(develop.body['code'], 'not_triggered');

    const docs = { repository: 'acme/app', snapshot: sha, workflow: '.github/workflows/docs.yml', base: 'main' };
    await createdRun(h, docs); // no changed_files: paths: filters are not applied
    await createdRun(h, { ...docs, changed_files: ['src/app.js', 'docs/guide.md'] });
    const code = await submitRun(h, { ...docs, changed_files: ['src/app.js'] });
    assert.equal(code.status, 422);
    assert.equal(code.body['code'], 'not_triggered');
    assert.match(String(code.body['message']), /^the push event does not trigger \.github\/workflows\/docs\.yml: /);
  });

  it('runs to completion when a runner takes its jobs', async (t) => {
    const { h, sha } = await uploaded(t);
    const runId = await createdRun(h, { repository: 'acme/app', snapshot: sha, workflow: CI });
    const runner = testRunner(h.engine);
    assert.equal(await runner.drain(succeed), 4);
    assert.deepEqual([...runner.taken].sort(), ['build', 'call/deploy', 'lint', 'test']);
    const order = (key: string) => runner.taken.indexOf(key);
    assert.ok(order('build') < order('test') && order('test') < order('call/deploy'), `needs respected: ${runner.taken.join(', ')}`);
    const run = await getRun(h, runId);
    assert.deepEqual([run.status, run.conclusion], ['success', 'success']);
    assert.deepEqual(jobTable(run.jobs).sort(), ['build: success', 'call / deploy: success', 'lint: success', 'test: success']);
  });

  it('keeps a submitted snapshot for the retention counted from the submission', async (t) => {
    const { h, sha } = await uploaded(t);
    h.clock.advance(20 * 60_000);
    await createdRun(h, { repository: 'acme/app', snapshot: sha, workflow: CI });
    assert.equal(await h.snapshots.prune(h.clock.now() + 1800_000 - 1), 0);
    assert.equal(await h.snapshots.hasCommit('acme/app', sha), true);
  });
});

describe('POST /api/v1/runs: what does not run, and why', () => {
  it('404 workflow_not_found names the path and nothing else; 404 snapshot_not_found for an unknown snapshot', async (t) => {
    const { h, sha } = await uploaded(t);
    const missing = await submitRun(h, { repository: 'acme/app', snapshot: sha, workflow: '.github/workflows/nope.yml' });
    assert.equal(missing.status, 404);
    assert.equal(missing.body['code'], 'workflow_not_found');
    assert.equal(missing.body['message'], `.github/workflows/nope.yml is not a file in snapshot ${sha} of acme/app`);
    assert.doesNotMatch(JSON.stringify(missing.body), /ci\.yml|docs\.yml|deploy\.yml/, 'other files of the tree are not listed');

    const ignored = await submitRun(h, { repository: 'acme/app', snapshot: sha, workflow: '.github/workflows/ignored.yml' });
    assert.equal(ignored.body['code'], 'workflow_not_found', 'an ignored file is not in the snapshot');

    const unknown = await submitRun(h, { repository: 'acme/app', snapshot: 'f'.repeat(40), workflow: CI });
    assert.equal(unknown.status, 404);
    assert.equal(unknown.body['code'], 'snapshot_not_found');
    const otherRepository = await submitRun(h, { repository: 'acme/other', snapshot: sha, workflow: CI });
    assert.equal(otherRepository.status, 404);
  });

  it('422 not_triggered says why, and where a local pull request takes its missing fields', async (t) => {
    const prOnly = 'on:\n  pull_request:\n    branches: [main]\njobs:\n  a:\n    runs-on: self-hosted\n    steps:\n      - run: echo a\n';
    const { h, sha } = await uploaded(t, { '.github/workflows/pr.yml': prOnly });
    const feature = await submitRun(h, { repository: 'acme/app', snapshot: sha, workflow: CI, ref: 'refs/heads/feature' });
    assert.equal(feature.status, 422);
    assert.equal(feature.body['code'], 'not_triggered');
    assert.match(String(feature.body['message']), /^the push event does not trigger \.github\/workflows\/ci\.yml: .*feature/);
    assert.deepEqual((feature.body['details'] as Record<string, unknown>)['event'], 'push');

    const bare = await submitRun(h, { repository: 'acme/app', snapshot: sha, workflow: '.github/workflows/pr.yml', event: 'pull_request' });
    assert.equal(bare.status, 422);
    assert.match(String(bare.body['message']), /; a local pull_request event carries no pull-request fields: send the ones the workflow's filters read in payload/);
    const noBase = await submitRun(h, { repository: 'acme/app', snapshot: sha, workflow: '.github/workflows/pr.yml', event: 'pull_request', payload: { action: 'opened' } });
    assert.equal(noBase.status, 422);
    assert.match(String(noBase.body['message']), /needs 'baseRef'.*"pull_request": \{"base": \{"ref": "main"\}\}/);
    const withBase = await submitRun(h, {
      repository: 'acme/app',
      snapshot: sha,
      workflow: '.github/workflows/pr.yml',
      event: 'pull_request',
      payload: { action: 'opened', pull_request: { number: 1, base: { ref: 'main' } } },
    });
    assert.equal(withBase.status, 201, JSON.stringify(withBase.body));
  });

  it('422 invalid_workflow carries every file:line:col error and the failed run', async (t) => {
    const broken = 'on: push\njobs:\n  a:\n    runs-on: self-hosted\n    stepz:\n      - run: echo\n  b:\n    needs: [nobody]\n    runs-on: self-hosted\n    steps:\n      - run: echo\n';
    const { h, sha } = await uploaded(t, { '.github/workflows/broken.yml': broken });
    const { status, body } = await submitRun(h, { repository: 'acme/app', snapshot: sha, workflow: '.github/workflows/broken.yml' });
    assert.equal(status, 422, JSON.stringify(body));
    assert.equal(body['code'], 'invalid_workflow');
    const details = body['details'] as { errors: string[]; run_id: number; workflow: string; url: string };
    assert.equal(details.workflow, '.github/workflows/broken.yml');
    assert.ok(details.errors.length >= 1);
    for (const error of details.errors) {
      assert.match(error, /^\.github\/workflows\/broken\.yml:\d+:\d+: /);
      assert.ok(String(body['message']).includes(error), 'the message lists every error');
    }
    assert.ok(details.errors.some((error) => /stepz/.test(error)), JSON.stringify(details.errors));
    const run = await getRun(h, details.run_id);
    assert.deepEqual([run.status, run.conclusion, run.trigger], ['failure', 'failure', 'local']);
    assert.equal(details.url, `${h.base}/api/v1/runs/${details.run_id}`);
  });

  it('501 naming what to set for a remote reusable workflow when neither a mirror nor a forge is configured; 400 for a bad request', async (t) => {
    const remote = 'on: push\njobs:\n  call:\n    uses: octo/lib/.github/workflows/release.yml@v2\n';
    const { h, sha } = await uploaded(t, { '.github/workflows/remote.yml': remote });
    const notYet = await submitRun(h, { repository: 'acme/app', snapshot: sha, workflow: '.github/workflows/remote.yml' });
    assert.equal(notYet.status, 501);
    assert.equal(notYet.body['code'], 'not_implemented');
    assert.match(String(notYet.body['message']), /^uses: octo\/lib\/\.github\/workflows\/release\.yml@v2: no source of remote repositories is configured \(set SVC_ACTIONS_MIRROR_DIR .*SVC_FORGE_API_URL/);

    const bad = await submitRun(h, { repository: 'acme/app', snapshot: 'HEAD', workflow: '../ci.yml' });
    assert.equal(bad.status, 400);
    assert.equal(bad.body['code'], 'invalid_request');
    assert.match(String(bad.body['message']), /^invalid run request: snapshot must be the sha that POST \/api\/v1\/snapshots answered/);
    const outside = await submitRun(h, { repository: 'acme/app', snapshot: sha, workflow: '../ci.yml' });
    assert.equal(outside.status, 400);
    assert.match(String(outside.body['message']), /workflow "\.\.\/ci\.yml" must be a path inside the repository/);
    const badRepository = await submitRun(h, { repository: 'acme', snapshot: sha, workflow: CI });
    assert.equal(badRepository.status, 400);
    assert.equal(badRepository.body['code'], 'invalid_repository');
    const notJson = await fetch(`${h.base}/api/v1/runs`, { method: 'POST', headers: { ...h.auth, 'content-type': 'application/json' }, body: '{' });
    assert.equal(notJson.status, 400);
    const unauthenticated = await fetch(`${h.base}/api/v1/runs`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
    assert.equal(unauthenticated.status, 401);
  });
});
