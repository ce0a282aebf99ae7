/**
 * A finished job's token (also `GITHUB_TOKEN` and `ACTIONS_RUNTIME_TOKEN`) opens nothing: every
 * route the route table lists as taking a job token (the Worker's, the results service's, the run
 * service's, action downloads, cache, artifacts, OIDC, the checkout relay) refuses it once its job
 * attempt is terminal, and no other write route accepts it either. The routes come from the
 * host's route table, so a route added tomorrow is walked too.
 */
import assert from 'node:assert/strict';
import { describe, it, type TestContext } from 'node:test';
import type { RouteEntry } from '../../core/kernel/index.js';
import { JOB_TOKEN_CREDENTIAL } from '../../core/ports/index.js';
import type { JsonObject } from '../../core/protocol/index.js';
import { runnerHost, RUNNER_BACKENDS, type RunnerHost, type StoreKind } from './runner-host.js';
import { logPage, ScriptedWorker, timelineRecord } from './scripted-worker.js';
import { createRun, type DispatchedJob, dispatchNext, ONE_STEP_WORKFLOW } from './worker-job.js';

const WRITES = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/**
 * Job-token write routes that answer a finished job's own token with a 2xx, each with why that
 * is no write to the run: checked to leave the job as it ended.
 */
const ANSWERED_WITHOUT_WRITING: ReadonlyMap<string, string> = new Map([
  [
    'POST /:scopeIdentifier/_apis/distributedtask/hubs/:hubName/plans/:planId/events',
    "JobCompleted again: the runner retries a completion whose answer it lost; the token check answers 204 and the route never runs",
  ],
  ['POST /run-service/completejob', 'completejob again, as above: answered 200 by the token check, the route never runs'],
]);

/**
 * Write routes that do not take a job token and answer a request carrying one with a 2xx, each
 * with the reason that is no write to the run. Empty today: every other write route wants its own
 * credential (system bearer, runner token, registration token, signed URL) and refuses.
 */
const NOT_RUN_WRITES: ReadonlyMap<string, string> = new Map();

interface FinishedJob {
  readonly h: RunnerHost;
  readonly job: DispatchedJob;
  readonly worker: ScriptedWorker;
  readonly logId: number;
  /** A signed URL for the job log the results service handed out while the job ran. */
  readonly jobLogUrl: string;
}

/** A job run to its end the way the official Worker reports it: timeline, a log page, a step summary, JobCompleted. */
async function finishedJob(t: TestContext, kind: StoreKind, result: 'succeeded' | 'canceled' = 'succeeded'): Promise<FinishedJob> {
  const h = await runnerHost(t, { kind, plugins: ['blobs', 'runtime-services', 'checkout-relay'] });
  await createRun(h, ONE_STEP_WORKFLOW);
  const job = await dispatchNext(h);
  const worker = new ScriptedWorker(job.info);
  await worker.connect();
  const step = job.info.steps[0]?.id ?? '';
  assert.equal((await worker.updateRecords([timelineRecord({ id: job.info.jobId, type: 'Job', name: 'build', state: 'inProgress' })])).status, 200);
  const { logId } = await worker.uploadLog(step, ['hello']);
  assert.equal((await worker.attach(job.info.jobId, 'Checks.Step.Summary', step, Buffer.from('### done\n'))).status, 200);
  const signed = await fetch(`${h.baseUrl}/twirp/results.services.receiver.Receiver/GetJobLogsSignedBlobURL`, {
    method: 'POST',
    headers: { authorization: `Bearer ${job.info.token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ workflow_run_backend_id: job.info.planId, workflow_job_run_backend_id: job.info.jobId }),
  });
  assert.equal(signed.status, 200);
  const jobLogUrl = ((await signed.json()) as { logs_url: string }).logs_url;
  if (result === 'canceled') {
    await h.engine.cancelJob(job.assignment.job.id);
    // Cancellation asks the runner to stop; its wind-down reports still land until it completes.
    assert.equal((await worker.updateRecords([timelineRecord({ id: step, parentId: job.info.jobId, order: 1, state: 'completed', result: 'canceled' })])).status, 200);
  }
  assert.equal((await worker.jobCompleted(result)).status, 204);
  const finished = await h.engine.getJob(job.assignment.job.id);
  assert.equal(finished?.status, result === 'canceled' ? 'cancelled' : 'success');
  return { h, job, worker, logId, jobLogUrl };
}

/** A concrete URL for a route pattern, with the job's own plan, timeline, records and log. */
function concreteUrl(route: RouteEntry, finished: FinishedJob): string {
  const { info } = finished.job;
  const values: Readonly<Record<string, string>> = {
    scopeIdentifier: info.scopeIdentifier,
    hubName: info.hubName,
    planId: info.planId,
    timelineId: info.timelineId,
    recordId: info.jobId,
    logId: String(finished.logId),
    type: 'Checks.Step.Summary',
    name: info.steps[0]?.id ?? 'step',
    owner: 'acme',
    repo: 'widgets',
  };
  const path = route.url.replace(/:([A-Za-z0-9_]+)\??/g, (_match, name: string) => encodeURIComponent(values[name] ?? '1')).replace(/\*$/, 'x');
  return `${finished.h.baseUrl}${path}`;
}

interface Answer {
  readonly route: string;
  readonly status: number;
  readonly text: string;
}

async function callWith(token: string, route: RouteEntry, finished: FinishedJob): Promise<Answer> {
  const response = await fetch(concreteUrl(route, finished), {
    method: route.method,
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ planId: finished.job.info.planId, jobId: finished.job.info.jobId }),
  });
  return { route: `${route.method} ${route.url}`, status: response.status, text: await response.text() };
}

/** Job-token routes whose wire needs another refusal than 401/403 to make the runner stop, and why. */
const REFUSED_WITH: ReadonlyMap<string, readonly [number, string]> = new Map([
  ['POST /run-service/renewjob', [404, "the run service's 404 is the one answer that stops the runner's lock renewal (§2.7)"]],
]);

function assertRefusedAsFinished(answers: readonly Answer[]): void {
  const repeats = answers.filter((answer) => ANSWERED_WITHOUT_WRITING.has(answer.route));
  assert.deepEqual(
    repeats.map((answer) => [answer.route, answer.status >= 200 && answer.status < 300]),
    [...ANSWERED_WITHOUT_WRITING.keys()].map((route) => [route, true]),
    'a completion repeat is answered',
  );
  const others = answers.filter((answer) => !ANSWERED_WITHOUT_WRITING.has(answer.route));
  const accepted = others.filter((answer) => {
    const required = REFUSED_WITH.get(answer.route)?.[0];
    return required === undefined ? answer.status !== 401 && answer.status !== 403 : answer.status !== required;
  });
  assert.deepEqual(accepted, [], `routes that did not refuse a finished job's token with 401/403: ${accepted.map((a) => a.route).join(', ')}`);
  for (const answer of others) assert.match(answer.text, /the job this token belongs to has finished/, `${answer.route} says why`);
}

for (const backend of RUNNER_BACKENDS) {
  describe(`a finished job's token (${backend.kind})`, { skip: backend.skip }, () => {
    it('is refused by every write route that takes a job token, and accepted by no other write route', async (t) => {
      const finished = await finishedJob(t, backend.kind);
      const token = finished.job.info.token;
      const stepsBefore = await finished.h.reporting.listSteps(finished.job.assignment.run.id);
      const routes = finished.h.host.routes().filter((route) => WRITES.has(route.method));
      const jobRoutes = routes.filter((route) => route.credential === JOB_TOKEN_CREDENTIAL);
      // The Worker's (records, timelines, logs, feed, attachments, events), the results service's
      // Twirp methods, renewjob/completejob, action resolution, cache, artifacts, OIDC, the relay.
      assert.ok(jobRoutes.length >= 15, `the route table lists the job-token write routes: ${jobRoutes.map((r) => `${r.method} ${r.url}`).join(', ')}`);
      const answers = [];
      for (const route of jobRoutes) answers.push(await callWith(token, route, finished));
      assertRefusedAsFinished(answers);
      t.diagnostic(`job-token write routes checked: ${answers.length}, refused: ${answers.length - ANSWERED_WITHOUT_WRITING.size}, completion repeats answered without writing: ${ANSWERED_WITHOUT_WRITING.size}`);

      const others = routes.filter((route) => route.credential !== JOB_TOKEN_CREDENTIAL && !NOT_RUN_WRITES.has(`${route.method} ${route.url}`));
      const acceptedElsewhere = [];
      for (const route of others) {
        const answer = await callWith(token, route, finished);
        if (answer.status >= 200 && answer.status < 300) acceptedElsewhere.push(answer.route);
      }
      assert.deepEqual(acceptedElsewhere, [], 'no other write route takes a job token');
      t.diagnostic(`other write routes checked: ${others.length}, accepted: 0`);

      const job = await finished.h.engine.getJob(finished.job.assignment.job.id);
      assert.deepEqual([job?.status, job?.conclusion], ['success', 'success'], 'the finished job is as it ended');
      assert.deepEqual(await finished.h.reporting.listSteps(finished.job.assignment.run.id), stepsBefore, 'its steps are as they ended');
    });

    it("leaves the signed upload URLs it was handed unable to replace the job's log", async (t) => {
      const { jobLogUrl } = await finishedJob(t, backend.kind);
      const replaced = await fetch(jobLogUrl, { method: 'PUT', headers: { 'x-ms-blob-type': 'BlockBlob' }, body: 'forged log' });
      assert.equal(replaced.status, 403);
      assert.match(await replaced.text(), /the job this token belongs to has finished/);
    });

    it('is refused on the Worker routes with the answer an expired token gets (the runner gives up)', async (t) => {
      const { worker, logId } = await finishedJob(t, backend.kind);
      for (const late of [
        await worker.updateRecords([timelineRecord({ id: worker.job.steps[0]?.id ?? '', parentId: worker.job.jobId, order: 1, name: 'renamed', state: 'completed', result: 'failed' })]),
        await worker.appendLog(logId, logPage(['appended after the end'])),
        await worker.attach(worker.job.jobId, 'Checks.Step.Summary', worker.job.steps[0]?.id ?? '', Buffer.from('### forged\n')),
      ]) {
        assert.equal(late.status, 401, JSON.stringify(late.body));
        assert.equal(late.headers.get('www-authenticate'), 'Bearer');
        assert.equal((late.body as JsonObject)['typeKey'], 'VssUnauthorizedException');
      }
    });

    it("a cancelled job's token is refused once the job is cancelled", async (t) => {
      const finished = await finishedJob(t, backend.kind, 'canceled');
      const routes = finished.h.host.routes().filter((route) => WRITES.has(route.method) && route.credential === JOB_TOKEN_CREDENTIAL);
      const answers = [];
      for (const route of routes) answers.push(await callWith(finished.job.info.token, route, finished));
      assertRefusedAsFinished(answers);
      const job = await finished.h.engine.getJob(finished.job.assignment.job.id);
      assert.deepEqual([job?.status, job?.conclusion], ['cancelled', 'cancelled'], 'the cancelled job is as it ended');
    });
  });
}
