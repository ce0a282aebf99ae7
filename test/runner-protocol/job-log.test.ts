/**
 * The job-level log in the legacy flow (§4.3): the official runner writes every step line to its
 * step's log and again to the job record's log (ExecutionContext.Write writes to the parent
 * context's paging logger too), plus the lines only the job context writes. A scripted Worker
 * uploads both, the job log in two pages (the first one mid-job, before the running step's own
 * log, as at an 8 MiB page rollover), each line stamped separately as the two loggers do. `/logs`
 * and the events feed must show every line once, the job-only lines too, and `raw=1` the job log
 * as uploaded.
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { describe, it } from 'node:test';
import type { JsonObject } from '../../core/protocol/index.js';
import { jobOnlyLines } from '../../plugins/runner-protocol/worker-api/index.js';
import { runnerHost, RUNNER_BACKENDS, type RunnerHost } from './runner-host.js';
import { logPage, ScriptedWorker, timelineRecord } from './scripted-worker.js';
import type { HttpResult } from './vss-client.js';
import { createRun, dispatchNext } from './worker-job.js';

const WORKFLOW = `name: ci
on: push
jobs:
  build:
    runs-on: [self-hosted]
    steps:
      - run: echo hello
`;

const T0 = Date.UTC(2030, 0, 1, 0, 0, 1);
/** The job logger stamps a line a little after the step logger did. */
const LATER = T0 + 3;

const SETUP = ['Current runner version: 2.337.0', 'Complete job name: build'];
const ECHO = ['##[group]Run echo hello', 'echo hello', '##[endgroup]', 'hello'];
const COMPLETE = ['Cleaning up orphan processes'];

function ok(result: HttpResult, status = 200): HttpResult {
  assert.equal(result.status, status, JSON.stringify(result.body));
  return result;
}

async function get(h: RunnerHost, path: string): Promise<{ status: number; text: string }> {
  const response = await fetch(`${h.baseUrl}/api/v1${path}`, { headers: { authorization: `Bearer ${h.systemToken}` } });
  return { status: response.status, text: await response.text() };
}

async function logLines(h: RunnerHost, runId: number, query: string): Promise<string[]> {
  const { status, text } = await get(h, `/runs/${runId}/logs${query}`);
  assert.equal(status, 200, text);
  return text.split('\n').filter((line) => line !== '');
}

const texts = (lines: readonly string[]) => lines.map((line) => line.slice(29));

for (const backend of RUNNER_BACKENDS) {
  describe(`the job-level log, legacy flow (${backend.kind})`, { skip: backend.skip }, () => {
    it('repeated step lines are shown once, job-only lines are kept, the raw log is the job log', async (t) => {
      const h = await runnerHost(t, { kind: backend.kind });
      const run = await createRun(h, WORKFLOW);
      const build = await dispatchNext(h);
      const w = new ScriptedWorker(build.info);
      await w.connect();
      const jobId = w.job.jobId;
      const [echo] = w.job.steps;
      assert.ok(echo);
      const setup = randomUUID();
      const complete = randomUUID();
      const step = (id: string, order: number, name: string, fields: Readonly<Record<string, string>>) => timelineRecord({ id, parentId: jobId, order, name, refName: name, ...fields });

      ok(await w.updateRecords([timelineRecord({ id: jobId, type: 'Job', name: 'build', refName: 'build', state: 'inProgress', order: null }), step(setup, 1, 'Set up job', { state: 'inProgress' })]));
      const jobLog = Number((ok(await w.createLog(jobId)).body as JsonObject)['id']);
      ok(await w.updateRecords([step(setup, 1, 'Set up job', { state: 'completed', result: 'succeeded' })]));
      await w.uploadLog(setup, SETUP);

      // The job log's first page closes while the echo step runs: its lines are in no step log yet.
      ok(await w.updateRecords([step(echo.id, 2, 'Run echo hello', { state: 'inProgress' })]));
      const first = logPage(['Starting: build', ...SETUP, ...ECHO.slice(0, 2)], LATER);
      ok(await w.appendLog(jobLog, first));
      assert.deepEqual(texts(await logLines(h, run.id, '?job=build')), SETUP, 'a job log page is not shown as it arrives');
      ok(await w.updateRecords([step(echo.id, 2, 'Run echo hello', { state: 'completed', result: 'succeeded' })]));
      await w.uploadLog(echo.id, ECHO);

      ok(await w.updateRecords([step(complete, 3, 'Complete job', { state: 'completed', result: 'succeeded' })]));
      await w.uploadLog(complete, COMPLETE);
      const warning = '##[warning]This self-hosted runner is currently using runner version 2.300.0. This version is out of date.';
      const second = logPage([...ECHO.slice(2), ...COMPLETE, warning, 'Finishing: build'], LATER);
      ok(await w.appendLog(jobLog, second));
      ok(await w.appendLog(jobLog, second), 200);
      ok(await w.updateRecords([timelineRecord({ id: jobId, type: 'Job', name: 'build', state: 'completed', result: 'succeeded', log: { id: jobLog, location: null } })]));
      ok(await w.jobCompleted('succeeded'), 204);
      ok(await w.jobCompleted('succeeded'), 204);

      const lines = await logLines(h, run.id, '?job=build');
      assert.deepEqual(texts(lines), [...SETUP, ...ECHO, ...COMPLETE, 'Starting: build', warning, 'Finishing: build'], lines.join('\n'));
      assert.match(lines[lines.length - 1] ?? '', /^2030-01-01T00:00:01\.0030000Z Finishing: build$/, 'a job-only line keeps its timestamp');
      assert.deepEqual(texts(await logLines(h, run.id, '?job=build&step=2')), ECHO);

      const raw = await get(h, `/runs/${run.id}/logs?job=build&raw=1`);
      assert.equal(raw.status, 200, raw.text);
      assert.equal(raw.text, Buffer.concat([first.subarray(3), second.subarray(3)]).toString('utf8'), 'the raw log: the job log as uploaded, without BOMs');
      assert.equal((await get(h, `/runs/${run.id}/logs?job=build&step=2&raw=1`)).status, 400);

      // The run's feed (what events.ndjson streams live) from its start.
      const logEvents = (await h.reporting.readFeed(run.id, 0, 10_000)).entries.map((entry) => entry.event).flatMap((event) => (event.type === 'log' ? [event.line.slice(29)] : []));
      assert.deepEqual(logEvents, [...SETUP, ...ECHO, ...COMPLETE, 'Starting: build', warning, 'Finishing: build'], 'the feed shows each line once');
    });
  });
}

describe('jobOnlyLines: which lines of a job log are its own', () => {
  const stamped = (ms: number, text: string) => `${new Date(T0 + ms).toISOString().slice(0, -1)}0000Z ${text}`;
  it('a job log holding every step line (the official runner) loses them, whatever their timestamps', () => {
    const steps = [stamped(0, 'hello'), stamped(1, 'hello'), stamped(2, 'done')];
    const job = [stamped(0, 'Starting: build'), stamped(3, 'hello'), stamped(4, 'hello'), stamped(5, 'hello'), stamped(6, 'done')];
    assert.deepEqual(jobOnlyLines(job, steps), [stamped(0, 'Starting: build'), stamped(5, 'hello')], 'a job-only line with a step line\'s text is kept');
  });
  it('a job log without the step lines (svc-runner writes only job-level lines there) is kept whole', () => {
    const job = [stamped(0, 'Cleaning up'), stamped(1, 'done')];
    assert.deepEqual(jobOnlyLines(job, [stamped(0, 'done'), stamped(1, 'hello')]), job);
    assert.deepEqual(jobOnlyLines(job, []), job);
  });
});
