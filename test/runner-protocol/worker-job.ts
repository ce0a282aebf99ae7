/**
 * The dispatch side, as far as the Worker's tests need it (the Listener's routes are built
 * elsewhere): a run created with `engine.createRun` from a workflow file, a job claimed with
 * `engine.acquireJob`, its job message built with `buildJobMessage` and a job token minted for it.
 */
import assert from 'node:assert/strict';
import { selectRuns, type Assignment, type RunRecord } from '../../core/engine/index.js';
import { randomIds } from '../../core/kernel/index.js';
import type { JsonObject } from '../../core/protocol/index.js';
import { createJobAttempts, createJobTokens, jobTokenTtlSeconds, loadSigningKey, type JobTokenClaims, type JobTokens } from '../../plugins/runner-protocol/auth/index.js';
import { buildJobMessage, needsFromJobs, planFor, planIdFor } from '../../plugins/runner-protocol/job-message/index.js';
import type { RunnerHost } from './runner-host.js';
import { jobInfo, type WorkerJobInfo } from './scripted-worker.js';

export const WORKFLOW_PATH = '.github/workflows/ci.yml';

/** One job of one `run:` step, for a self-hosted runner: the smallest job the Worker routes report. */
export const ONE_STEP_WORKFLOW = `name: ci
on: push
jobs:
  build:
    runs-on: [self-hosted]
    steps:
      - run: echo hi
`;
export const RUNNER = { runnerId: '7', runnerName: 'build-01', labels: ['self-hosted', 'linux'] } as const;

export async function createRun(h: RunnerHost, workflow: string): Promise<RunRecord> {
  const sha = 'c'.repeat(40);
  const [selection] = await selectRuns({
    event: { name: 'push', payload: { ref: 'refs/heads/main', after: sha, repository: { full_name: 'acme/widgets' } }, ref: 'refs/heads/main', sha },
    repository: 'acme/widgets',
    actor: 'octo',
    trigger: 'local',
    workflows: [{ path: WORKFLOW_PATH, content: workflow }],
    serverUrl: h.baseUrl,
  });
  assert.ok(selection?.kind === 'run', `the workflow makes a run: ${JSON.stringify(selection)}`);
  return h.engine.createRun(selection.input);
}

export async function jobTokensOf(h: RunnerHost): Promise<JobTokens> {
  return createJobTokens({ key: await loadSigningKey(h.sharedKeys), clock: h.clock, ids: randomIds, attempts: createJobAttempts(h.engine) });
}

export interface DispatchedJob {
  readonly assignment: Assignment;
  readonly message: JsonObject;
  readonly info: WorkerJobInfo;
  readonly claims: JobTokenClaims;
}

/** Claims the next job for RUNNER and builds what the Listener would hand the Worker. */
export async function dispatchNext(h: RunnerHost, agentId = 7): Promise<DispatchedJob> {
  const assignment = await h.engine.acquireJob(RUNNER, 600_000);
  assert.ok(assignment, 'a job is queued for the runner');
  const { run, job } = assignment;
  const planId = planIdFor(run);
  const claims: JobTokenClaims = { runId: run.id, jobId: job.id, agentId, planId, timelineId: planId, attempt: job.attempt };
  const token = await (await jobTokensOf(h)).mintJobToken(claims, jobTokenTtlSeconds(job.timeoutMinutes));
  const plan = await planFor(assignment, { serverUrl: h.baseUrl });
  const needs = needsFromJobs(plan.job, await h.engine.listJobs(run.id), plan.workflow);
  const message = buildJobMessage({ assignment, plan, serverUrls: { api: h.baseUrl, publicUrl: h.baseUrl }, accessToken: token, needs });
  return { assignment, message, info: jobInfo(message), claims };
}
