/**
 * The real `@actions/cache`, `@actions/artifact` and `@actions/core`, unmodified, inside jobs run
 * by `svc-runner` against `svc serve` (SQLite, runtime-services loaded): a node20 action
 * (fixtures/toolkit-action) saves and restores caches (exact key, restore-keys prefix, the scope
 * rule across branches), uploads an artifact and downloads it in a dependent job, and asks for an
 * ID token that the test verifies against the server's JWKS. One server, one runner, three runs.
 */
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { it } from 'node:test';
import { createRemoteJWKSet, jwtVerify } from 'jose';
import { selectRuns, type RunRecord } from '../../core/engine/index.js';
import { runnerHost, type RunnerHost } from '../runner-protocol/runner-host.js';
import { WORKFLOW_PATH } from '../runner-protocol/worker-job.js';
import { onCleanup } from '../support/services.js';
import type { CliProcess } from '../support/spawn-cli.js';
import { jobOf, logLines, runView } from './fixtures/e2e-harness.js';
import { branchWorkflow, mainWorkflow, siblingWorkflow } from './fixtures/toolkit-workflows.js';
import { configure, finishedJob, runnerCli, tempDir } from './listener-harness.js';

const REPOSITORY = 'acme/widgets';

/** A push run of `workflow` on `branch` of a repository whose default branch is `main`. */
async function pushRun(h: RunnerHost, workflow: string, branch: string, sha: string): Promise<RunRecord> {
  const ref = `refs/heads/${branch}`;
  const [selection] = await selectRuns({
    event: { name: 'push', payload: { ref, after: sha, repository: { full_name: REPOSITORY, default_branch: 'main' } }, ref, sha },
    repository: REPOSITORY,
    actor: 'octo',
    trigger: 'local',
    workflows: [{ path: WORKFLOW_PATH, content: workflow }],
    serverUrl: h.baseUrl,
  });
  assert.ok(selection?.kind === 'run', `the workflow makes a run: ${JSON.stringify(selection)}`);
  return h.engine.createRun(selection.input);
}

/** Waits for every job of the run (the runner takes them one at a time); what the runner printed when one never ends. */
async function finished(h: RunnerHost, run: RunRecord, cli: CliProcess): Promise<void> {
  try {
    for (const job of await h.engine.listJobs(run.id)) await finishedJob(h, job.id, 180_000);
  } catch (error) {
    throw new Error(`${error instanceof Error ? error.message : String(error)}; svc-runner printed:\n${cli.output()}`);
  }
}

async function describeJob(h: RunnerHost, run: RunRecord, job: string): Promise<string> {
  return `${JSON.stringify(jobOf(await runView(h, run.id), job))}\n${(await logLines(h, run.id, job)).join('\n')}`;
}

it('the real @actions/* clients work unchanged in jobs run by svc-runner', async (t) => {
  const h = await runnerHost(t, { env: { SVC_DATA_DIR: tempDir(t, 'svc-toolkit-data-') }, plugins: ['runtime-services'], plugin: { timings: { pollHoldMs: 2000 } } });
  h.clock.set(Date.now());
  const tick = setInterval(() => h.clock.set(Date.now()), 50);
  onCleanup(t, () => clearInterval(tick));
  const root = tempDir(t, 'svc-toolkit-root-');
  await configure(t, h, root, 'toolkit-e2e');
  const reports = tempDir(t, 'svc-toolkit-reports-');

  const cli = runnerCli(t, ['run', '--runner-root', root]);
  const main = await pushRun(h, mainWorkflow(join(reports, 'denied-token')), 'main', 'a'.repeat(40));
  await finished(h, main, cli);
  const sibling = await pushRun(h, siblingWorkflow(), 'feature-a', 'b'.repeat(40));
  await finished(h, sibling, cli);
  const branch = await pushRun(h, branchWorkflow(join(reports, 'branch-token')), 'feature-b', 'd'.repeat(40));
  await finished(h, branch, cli);
  cli.child.kill('SIGTERM');
  assert.equal((await cli.exited).code, 0, cli.output());

  const mainView = await runView(h, main.id);
  const produce = jobOf(mainView, 'produce');
  const consume = jobOf(mainView, 'consume');
  assert.equal(produce.conclusion, 'success', await describeJob(h, main, 'produce'));
  assert.equal(consume.conclusion, 'success', await describeJob(h, main, 'consume'));

  await t.test('cache: saved in one job, restored by exact key and by restore-keys prefix in the next', () => {
    // Both make @actions/cache take its v2 service: the flag, and a GITHUB_SERVER_URL through the host gate.
    assert.equal(produce.outputs['cache-v2'], 'true', 'the action gets ACTIONS_CACHE_SERVICE_V2');
    assert.equal(produce.outputs['server-url'], `http://svc.localhost:${new URL(h.baseUrl).port}`);
    assert.match(produce.outputs['cache-id'] ?? '', /^[1-9]\d*$/);
    assert.match(produce.outputs['cache-digest'] ?? '', /^[0-9a-f]{64}$/);
    assert.equal(consume.outputs['exact'], 'toolkit-main-1');
    assert.equal(consume.outputs['exact-digest'], produce.outputs['cache-digest'], 'the exact restore gives back the saved files');
    assert.equal(consume.outputs['prefix'], 'toolkit-main-1', 'the restore key matches by prefix');
    assert.equal(consume.outputs['prefix-digest'], produce.outputs['cache-digest']);
  });

  await t.test('cache: saved in a post step as actions/cache does, read back on its own branch', async () => {
    const view = await runView(h, sibling.id);
    const [saver, checker] = [jobOf(view, 'sibling'), jobOf(view, 'sibling-check')];
    assert.equal(saver.conclusion, 'success', await describeJob(h, sibling, 'sibling'));
    assert.equal(checker.conclusion, 'success', await describeJob(h, sibling, 'sibling-check'));
    assert.ok(saver.steps.at(-2)?.name.startsWith('Post '), `the save runs in a post step: ${JSON.stringify(saver.steps)}`);
    assert.equal(saver.outputs['matched'], 'none');
    assert.equal(checker.outputs['matched'], 'toolkit-sibling-1');
    assert.equal(checker.outputs['digest'], saver.outputs['digest']);
    const lines = await logLines(h, sibling.id);
    assert.ok(lines.includes('saved toolkit-sibling-1 in post') && lines.includes('cache hit on toolkit-sibling-1: not saving'), lines.join('\n'));
  });

  await t.test('cache: another branch misses a sibling branch key and hits the default branch key', async () => {
    const job = jobOf(await runView(h, branch.id), 'branch');
    assert.equal(job.conclusion, 'success', await describeJob(h, branch, 'branch'));
    assert.equal(job.outputs['sibling'], 'none', "feature-b does not read feature-a's entry");
    assert.equal(job.outputs['main'], 'toolkit-main-1', "feature-b reads the default branch's entry");
    assert.equal(job.outputs['main-digest'], produce.outputs['cache-digest']);
  });

  await t.test('artifacts: uploaded in one job (through a composite), listed and downloaded by name in the dependent job', () => {
    assert.match(produce.outputs['artifact-id'] ?? '', /^[1-9]\d*$/);
    assert.equal(consume.outputs['artifact-id'], produce.outputs['artifact-id']);
    assert.equal(consume.outputs['listed'], `bundle:${produce.outputs['artifact-size']}`);
    assert.equal(consume.outputs['artifact-digest'], produce.outputs['artifact-digest'], 'both files, one in a subdirectory, come back as uploaded');
  });

  await t.test('OIDC: a job with id-token: write gets a token that verifies against the JWKS with its claims', async () => {
    const token = await readFile(join(reports, 'branch-token'), 'utf8');
    const jwks = createRemoteJWKSet(new URL(`${h.baseUrl}/.well-known/jwks`));
    const { payload, protectedHeader } = await jwtVerify(token, jwks, { issuer: h.baseUrl, audience: 'my-aud' });
    assert.equal(protectedHeader.alg, 'RS256');
    assert.deepEqual(
      {
        sub: payload.sub,
        repository: payload['repository'],
        ref: payload['ref'],
        sha: payload['sha'],
        job_workflow_ref: payload['job_workflow_ref'],
        runner_environment: payload['runner_environment'],
        event_name: payload['event_name'],
      },
      {
        sub: `repo:${REPOSITORY}:ref:refs/heads/feature-b`,
        repository: REPOSITORY,
        ref: 'refs/heads/feature-b',
        sha: 'd'.repeat(40),
        job_workflow_ref: `${REPOSITORY}/${WORKFLOW_PATH}@refs/heads/feature-b`,
        runner_environment: 'self-hosted',
        event_name: 'push',
      },
    );
  });

  await t.test('OIDC: a run step of that job gets a token too (curl with ACTIONS_ID_TOKEN_REQUEST_URL and _TOKEN)', async () => {
    const { value } = JSON.parse(await readFile(join(reports, 'branch-token.json'), 'utf8')) as { value: string };
    const { payload } = await jwtVerify(value, createRemoteJWKSet(new URL(`${h.baseUrl}/.well-known/jwks`)), { issuer: h.baseUrl, audience: 'curl-aud' });
    assert.equal(payload.sub, `repo:${REPOSITORY}:ref:refs/heads/feature-b`);
  });

  await t.test('OIDC: a job without id-token: write fails getIDToken with the toolkit error', async () => {
    assert.equal(consume.outputs['oidc'], 'failure');
    const lines = await logLines(h, main.id, 'consume');
    assert.ok(
      lines.some((line) => line.startsWith('##[error]') && line.includes('Unable to get ACTIONS_ID_TOKEN_REQUEST_URL env variable')),
      lines.join('\n'),
    );
    await assert.rejects(readFile(join(reports, 'denied-token')), { code: 'ENOENT' });
  });
});
