/**
 * Text the stores cannot keep as it is (issue 15, defect 4): U+0000 and lone surrogates in every
 * string the Worker reports (timeline records and their issues, console feed, log pages, job
 * outputs) are stored and read back the same on SQLite and PostgreSQL, and the job keeps its
 * steps and log. And the smaller PostgreSQL cases of defect 8: an empty timeline update is a
 * no-op, and a number past what the store keeps is a 400 naming the field.
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { describe, it, type TestContext } from 'node:test';
import type { JsonObject, JsonValue } from '../../core/protocol/index.js';
import { runnerHost, RUNNER_BACKENDS, type RunnerHost, type StoreKind } from './runner-host.js';
import { ScriptedWorker, timelineRecord, WORKER_LOCATION } from './scripted-worker.js';
import type { HttpResult } from './vss-client.js';
import { createRun, dispatchNext, ONE_STEP_WORKFLOW } from './worker-job.js';

/** NUL, a lone high and a lone low surrogate, and the stores' escape character itself. */
const AWKWARD = 'nul:\u0000 high:\ud800 low:\udc00 esc:\ue000 esc-nul:\ue0000 pair:😀';
const at = (seconds: number) => new Date(Date.UTC(2030, 0, 1, 0, 0, seconds)).toISOString();

function ok(result: HttpResult, status = 200): HttpResult {
  assert.equal(result.status, status, JSON.stringify(result.body));
  return result;
}

function system(h: RunnerHost): Record<string, string> {
  return { authorization: `Bearer ${h.systemToken}` };
}

/** What a user and the runner read back, without ids and times that differ between hosts. */
interface ReadBack {
  readonly timeline: JsonValue;
  readonly run: JsonValue;
  readonly logs: readonly string[];
}

const VOLATILE = new Set(['id', 'parentId', 'lastModified', 'startTime', 'finishTime', 'started_at', 'completed_at', 'created_at', 'updated_at', 'run_started_at', 'url', 'html_url', 'logs_url', 'run_id', 'job_id', 'location', 'changeId', 'head_sha']);

function stable(value: unknown): JsonValue {
  if (Array.isArray(value)) return value.map(stable);
  if (typeof value !== 'object' || value === null) return value as JsonValue;
  return Object.fromEntries(Object.entries(value).filter(([key]) => !VOLATILE.has(key)).map(([key, inner]) => [key, stable(inner)]));
}

async function reportAwkwardJob(t: TestContext, kind: StoreKind): Promise<ReadBack> {
  const h = await runnerHost(t, { kind });
  const run = await createRun(h, ONE_STEP_WORKFLOW);
  const job = await dispatchNext(h);
  const w = new ScriptedWorker(job.info);
  await w.connect();
  const jobId = w.job.jobId;
  const [echo] = w.job.steps;
  assert.ok(echo);
  const setup = randomUUID();
  const issue = { type: 'error', category: AWKWARD, message: `message ${AWKWARD}`, isInfrastructureIssue: null, data: { file: `src/${AWKWARD}.ts`, line: '3', title: AWKWARD, logFileLineNumber: '1', stepNumber: '2' } };
  const text = { currentOperation: AWKWARD, resultCode: AWKWARD, workerName: AWKWARD, identifier: AWKWARD };
  ok(
    await w.updateRecords([
      timelineRecord({ id: jobId, type: 'Job', name: `build ${AWKWARD}`, refName: AWKWARD, state: 'inProgress', startTime: at(0), order: null, ...text }),
      timelineRecord({ id: setup, parentId: jobId, order: 1, name: `Set up ${AWKWARD}`, refName: AWKWARD, state: 'completed', result: 'succeeded', startTime: at(0), finishTime: at(1), ...text }),
      timelineRecord({ id: echo.id, parentId: jobId, order: 2, name: `Run ${AWKWARD}`, refName: AWKWARD, state: 'inProgress', startTime: at(1), ...text }),
    ]),
  );
  ok(await w.feed(echo.id, [`line ${AWKWARD}`, AWKWARD], 1), 204);
  await w.uploadLog(echo.id, [`page ${AWKWARD}`, AWKWARD]);
  ok(await w.updateRecords([timelineRecord({ id: echo.id, parentId: jobId, order: 2, name: `Run ${AWKWARD}`, refName: AWKWARD, state: 'completed', result: 'failed', startTime: at(1), finishTime: at(2), errorCount: 1, issues: [issue], ...text })]));
  ok(await w.updateRecords([timelineRecord({ id: jobId, type: 'Job', name: `build ${AWKWARD}`, state: 'completed', result: 'failed', startTime: at(0), finishTime: at(3), ...text })]));
  // The job's token reads its timeline while the job runs (it opens nothing once the job ended).
  const timeline = ok(await w.getTimeline()).body as JsonObject;
  ok(await w.jobCompleted('failed', { [`out`]: AWKWARD }), 204);

  const view = await fetch(`${h.baseUrl}/api/v1/runs/${run.id}`, { headers: system(h) });
  assert.equal(view.status, 200);
  const logs = await fetch(`${h.baseUrl}/api/v1/runs/${run.id}/logs?job=build`, { headers: system(h) });
  assert.equal(logs.status, 200);
  return {
    timeline: stable(timeline['records']),
    run: stable(await view.json()),
    logs: (await logs.text()).split('\n').map((line) => line.slice(29)),
  };
}

describe('NUL and lone surrogates in what the Worker reports', () => {
  it('are kept and read back the same on SQLite and PostgreSQL; the job keeps its steps, log and outputs', async (t) => {
    const results: ReadBack[] = [];
    for (const backend of RUNNER_BACKENDS) {
      if (backend.skip !== false) continue;
      const got = await reportAwkwardJob(t, backend.kind);
      results.push(got);
      const run = got.run as { conclusion: string; jobs: { conclusion: string; outputs: Record<string, string>; steps: { name: string }[] }[] };
      assert.equal(run.conclusion, 'failure', backend.kind);
      assert.deepEqual(run.jobs[0]?.outputs, { out: AWKWARD }, `${backend.kind}: the output round-trips`);
      assert.deepEqual(
        run.jobs[0]?.steps.map((step) => step.name),
        [`Set up ${AWKWARD}`, `Run ${AWKWARD}`],
        `${backend.kind}: the steps are kept, named as sent`,
      );
      const records = got.timeline as JsonObject[];
      assert.equal(records.find((record) => record['type'] === 'Job')?.['name'], `build ${AWKWARD}`, `${backend.kind}: the job record's name round-trips`);
      const issues = records.find((record) => record['name'] === `Run ${AWKWARD}`)?.['issues'] as JsonObject[] | undefined;
      assert.equal(issues?.[0]?.['message'], `message ${AWKWARD}`, `${backend.kind}: the issue round-trips`);
      assert.ok(got.logs.some((line) => line.startsWith('page nul:\u0000')), `${backend.kind}: the log keeps its lines: ${JSON.stringify(got.logs)}`);
    }
    assert.equal(results.length, RUNNER_BACKENDS.length, 'every store ran (set SVC_TEST_POSTGRES_URL)');
    const [first, ...others] = results;
    for (const other of others) assert.deepEqual(other, first, 'PostgreSQL reads back what SQLite does');
  });
});

for (const backend of RUNNER_BACKENDS) {
  describe(`worker api: updates the store cannot take as they are (${backend.kind})`, { skip: backend.skip }, () => {
    it('an empty timeline update is a no-op 200', async (t) => {
      const h = await runnerHost(t, { kind: backend.kind });
      await createRun(h, ONE_STEP_WORKFLOW);
      const w = new ScriptedWorker((await dispatchNext(h)).info);
      await w.connect();
      const answer = ok(await w.updateRecords([]));
      assert.deepEqual((answer.body as JsonObject)['value'], []);
      assert.equal(((ok(await w.getTimeline()).body as JsonObject)['records'] as JsonValue[]).length, 1, 'only the job record');
    });

    it('a number past what the store keeps is a 400 naming the field, not a 500', async (t) => {
      const h = await runnerHost(t, { kind: backend.kind });
      await createRun(h, ONE_STEP_WORKFLOW);
      const w = new ScriptedWorker((await dispatchNext(h)).info);
      await w.connect();
      const records = w.url(WORKER_LOCATION.records, { timelineId: w.job.timelineId });
      const response = await fetch(records, {
        method: 'PATCH',
        headers: { ...w.auth, 'content-type': 'application/json' },
        body: `{"count": 1e308, "value": []}`,
      });
      const body = (await response.json()) as JsonObject;
      assert.equal(response.status, 400, JSON.stringify(body));
      assert.match(String(body['message']), /count/);
    });
  });
}
