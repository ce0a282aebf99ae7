/**
 * The Worker's side of a job in the legacy flow, against `svc serve` (engine + runner-protocol):
 * a scripted Worker makes the official Worker's calls in its order (timeline records for the job
 * and its steps, live console lines, logs created and uploaded and linked, steps completing with
 * issues, a step summary, `JobCompleted` with outputs) and the run must show it: steps with
 * their results, each log line once, annotations on events.ndjson, outputs in the needs of the
 * job that waited for it.
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { describe, it } from 'node:test';
import { decodeContextData, fromContextData, type JsonObject, type JsonValue } from '../../core/protocol/index.js';
import { runnerHost, RUNNER_BACKENDS, type RunnerHost } from './runner-host.js';
import { ScriptedWorker, timelineRecord } from './scripted-worker.js';
import type { HttpResult } from './vss-client.js';
import { createRun, dispatchNext } from './worker-job.js';

const WORKFLOW = `name: ci
on: push
jobs:
  build:
    runs-on: [self-hosted]
    outputs:
      artifact: \${{ steps.pack.outputs.name }}
    steps:
      - run: echo hello
      - id: pack
        run: echo "name=artifact-68" >> "$GITHUB_OUTPUT"
  deploy:
    needs: build
    runs-on: [self-hosted]
    steps:
      - run: echo deploying \${{ needs.build.outputs.artifact }}
`;

const T0 = Date.UTC(2030, 0, 1, 0, 0, 1);
const at = (seconds: number) => `${new Date(T0 + seconds * 1000).toISOString().slice(0, -1)}0000Z`;

function ok(result: HttpResult, status = 200): HttpResult {
  assert.equal(result.status, status, JSON.stringify(result.body));
  return result;
}

function system(h: RunnerHost): Record<string, string> {
  return { authorization: `Bearer ${h.systemToken}` };
}

async function runView(h: RunnerHost, runId: number) {
  const response = await fetch(`${h.baseUrl}/api/v1/runs/${runId}`, { headers: system(h) });
  assert.equal(response.status, 200);
  return (await response.json()) as {
    status: string;
    conclusion: string | null;
    jobs: { name: string; status: string; conclusion: string | null; outputs: Record<string, string>; steps: { number: number; name: string; status: string; conclusion: string | null; started_at: string | null; completed_at: string | null }[] }[];
  };
}

async function logs(h: RunnerHost, runId: number, query = ''): Promise<string[]> {
  const response = await fetch(`${h.baseUrl}/api/v1/runs/${runId}/logs${query}`, { headers: system(h) });
  assert.equal(response.status, 200);
  return (await response.text()).split('\n').filter((line) => line !== '');
}

function object(value: JsonValue | undefined): JsonObject {
  assert.ok(typeof value === 'object' && value !== null && !Array.isArray(value));
  return value as JsonObject;
}

/** The official Worker's sequence for `build` (§8.1 step 10), with two issues on the `pack` step, up to `JobCompleted`. */
async function runBuild(w: ScriptedWorker): Promise<{ readonly packLog: { readonly logId: number; readonly page: Buffer } }> {
  await w.connect();
  const jobId = w.job.jobId;
  const [echo, pack] = w.job.steps;
  assert.ok(echo && pack, 'the message has both steps');
  const setup = randomUUID();
  const complete = randomUUID();
  const step = (id: string, order: number, name: string, fields: Readonly<Record<string, JsonValue>>) => timelineRecord({ id, parentId: jobId, order, name, refName: name, ...fields });

  ok(
    await w.updateRecords([
      timelineRecord({ id: jobId, type: 'Job', name: 'build', refName: 'build', state: 'inProgress', startTime: at(0), order: null }),
      step(setup, 1, 'Set up job', { state: 'inProgress', startTime: at(0) }),
      step(echo.id, 2, 'Run echo hello', { state: 'pending' }),
      step(pack.id, 3, 'Run pack', { state: 'pending' }),
    ]),
  );
  ok(await w.updateRecords([step(setup, 1, 'Set up job', { state: 'completed', result: 'succeeded', startTime: at(0), finishTime: at(1), percentComplete: 100 })]));
  await w.uploadLog(setup, ['Current runner version: 2.337.0', 'Complete job name: build']);

  ok(await w.updateRecords([step(echo.id, 2, 'Run echo hello', { state: 'inProgress', startTime: at(1) })]));
  ok(await w.feed(echo.id, ['##[group]Run echo hello', 'echo hello', '##[endgroup]', 'hello'], 1), 204);
  ok(await w.updateRecords([step(echo.id, 2, 'Run echo hello', { state: 'completed', result: 'succeeded', startTime: at(1), finishTime: at(2) })]));
  await w.uploadLog(echo.id, ['##[group]Run echo hello', 'echo hello', '##[endgroup]', 'hello']);

  const warning = { type: 'warning', category: 'Code', message: 'Unused variable x', isInfrastructureIssue: null, data: { file: 'src/a.ts', line: '3', col: '5', endLine: '3', endColumn: '9', title: 'lint', logFileLineNumber: '2', stepNumber: '3' } };
  const notice = { type: 'notice', category: 'General', message: 'Packed artifact-68', isInfrastructureIssue: null, data: { logFileLineNumber: '3', stepNumber: '3' } };
  ok(await w.updateRecords([step(pack.id, 3, 'Run pack', { state: 'inProgress', startTime: at(2) })]));
  ok(await w.feed(pack.id, ['Run pack', 'Warning: Unused variable x'], 1), 204);
  ok(await w.updateRecords([step(pack.id, 3, 'Run pack', { state: 'inProgress', startTime: at(2), warningCount: 1, issues: [warning] })]));
  const done = step(pack.id, 3, 'Run pack', { state: 'completed', result: 'succeededWithIssues', startTime: at(2), finishTime: at(3), warningCount: 1, noticeCount: 1, issues: [warning, notice] });
  ok(await w.updateRecords([done]));
  // The queue re-sends a whole record when an update has to be retried: no new annotations.
  ok(await w.updateRecords([done]));
  const packLog = await w.uploadLog(pack.id, ['##[group]Run pack', '##[endgroup]', '##[warning]Unused variable x', '##[notice]Packed artifact-68']);
  // A step summary is attached to the job record, named by the step's record id.
  const summary = ok(await w.attach(jobId, 'Checks.Step.Summary', pack.id, Buffer.from('### Packed\n')));
  assert.deepEqual([object(summary.body as JsonValue)['type'], object(summary.body as JsonValue)['recordId']], ['Checks.Step.Summary', jobId]);

  ok(await w.updateRecords([step(complete, 4, 'Complete job', { state: 'inProgress', startTime: at(3) })]));
  ok(await w.updateRecords([step(complete, 4, 'Complete job', { state: 'completed', result: 'succeeded', startTime: at(3), finishTime: at(4) })]));
  await w.uploadLog(complete, ['Cleaning up orphan processes']);
  ok(await w.updateRecords([timelineRecord({ id: jobId, type: 'Job', name: 'build', state: 'completed', result: 'succeeded', startTime: at(0), finishTime: at(4), warningCount: 1, noticeCount: 1 })]));
  return { packLog };
}

for (const backend of RUNNER_BACKENDS) {
  describe(`worker api: the official Worker's reports (${backend.kind})`, { skip: backend.skip }, () => {
    it('a job reported the way the Worker reports lands in the run, its outputs in the needs of the next', async (t) => {
      const h = await runnerHost(t, { kind: backend.kind });
      const run = await createRun(h, WORKFLOW);
      const build = await dispatchNext(h);
      assert.equal(build.assignment.job.jobKey, 'build');
      const w = new ScriptedWorker(build.info);
      const { packLog } = await runBuild(w);

      // The HTTP stack resends a page whose answer it lost (its queues drain before JobCompleted).
      const resent = ok(await w.appendLog(packLog.logId, packLog.page));
      assert.equal(object(resent.body as JsonValue)['lineCount'], 4, 'the resend is answered like the upload');
      const timeline = ok(await w.getTimeline()).body as JsonObject;
      ok(await w.jobCompleted('succeeded', { artifact: 'artifact-68' }), 204);
      // A repeat of the completion (its answer was lost) is answered and changes nothing.
      ok(await w.jobCompleted('failed'), 204);
      // Otherwise the job's token opens nothing from now on: a page, a read.
      for (const late of [await w.appendLog(packLog.logId, packLog.page), await w.getTimeline()]) {
        assert.equal(late.status, 401, JSON.stringify(late.body));
        assert.match(String(object(late.body as JsonValue)['message']), /has finished \(success\)/);
      }

      const view = await runView(h, run.id);
      const job = view.jobs.find((candidate) => candidate.name === 'build');
      assert.ok(job);
      assert.equal(job.status, 'success');
      assert.deepEqual(job.outputs, { artifact: 'artifact-68' });
      assert.deepEqual(
        job.steps.map((s) => [s.number, s.name, s.status, s.conclusion]),
        [
          [1, 'Set up job', 'success', 'success'],
          [2, 'Run echo hello', 'success', 'success'],
          [3, 'Run pack', 'success', 'success'],
          [4, 'Complete job', 'success', 'success'],
        ],
      );
      assert.deepEqual([job.steps[2]?.started_at, job.steps[2]?.completed_at], [new Date(T0 + 2000).toISOString(), new Date(T0 + 3000).toISOString()]);

      const lines = await logs(h, run.id, '?job=build');
      assert.equal(lines.length, 11, lines.join('\n'));
      assert.equal(lines.filter((line) => line.slice(29) === 'hello').length, 1, 'a line the feed showed and the page carried is stored once');
      assert.equal(lines.filter((line) => line.endsWith('##[notice]Packed artifact-68')).length, 1, 'a resent page is stored once');
      assert.match(lines[0] ?? '', /^2030-01-01T00:00:01\.0000000Z Current runner version: 2\.337\.0$/, 'the page without its BOM');
      assert.deepEqual((await logs(h, run.id, '?job=build&step=2')).map((line) => line.slice(29)), ['##[group]Run echo hello', 'echo hello', '##[endgroup]', 'hello']);

      const records = (timeline['records'] as JsonObject[]).map((record) => [record['type'], record['order'] ?? null, record['state'], record['result'], object(record['log'] ?? {})['id'] !== undefined]);
      assert.deepEqual(records, [
        ['Job', null, 'completed', 'succeeded', false],
        ['Task', 1, 'completed', 'succeeded', true],
        ['Task', 2, 'completed', 'succeeded', true],
        ['Task', 3, 'completed', 'succeededWithIssues', true],
        ['Task', 4, 'completed', 'succeeded', true],
      ]);

      // The job that needed it gets build's outputs in its message.
      const deploy = await dispatchNext(h);
      assert.equal(deploy.assignment.job.jobKey, 'deploy');
      const needs = fromContextData(decodeContextData(object(object(deploy.message['contextData'])['needs']))) as Record<string, { result: string; outputs: Record<string, string> }>;
      assert.deepEqual(needs['build'], { result: 'success', outputs: { artifact: 'artifact-68' } });
      const d = new ScriptedWorker(deploy.info);
      await d.connect();
      ok(await d.updateRecords([timelineRecord({ id: d.job.jobId, type: 'Job', name: 'deploy', state: 'inProgress', startTime: at(5) })]));
      ok(await d.jobCompleted('succeeded'), 204);

      // events.ndjson ends with the run, and tells the story.
      const response = await fetch(`${h.baseUrl}/api/v1/runs/${run.id}/events.ndjson`, { headers: system(h) });
      const events = (await response.text()).split('\n').filter((line) => line !== '').map((line) => JSON.parse(line) as Record<string, unknown>);
      const buildId = build.assignment.job.id;
      assert.deepEqual(
        events.filter((event) => event['type'] === 'annotation'),
        [
          { type: 'annotation', run_id: run.id, job_id: buildId, level: 'warning', message: 'Unused variable x', title: 'lint', file: 'src/a.ts', line: 3, end_line: 3, col: 5, end_col: 9 },
          { type: 'annotation', run_id: run.id, job_id: buildId, level: 'notice', message: 'Packed artifact-68' },
        ],
      );
      assert.deepEqual(
        events.filter((event) => event['type'] === 'job_completed').map((event) => [event['job_id'], event['status'], event['outputs']]),
        [
          [buildId, 'success', { artifact: 'artifact-68' }],
          [deploy.assignment.job.id, 'success', {}],
        ],
      );
      assert.equal((await runView(h, run.id)).conclusion, 'success');
    });
  });
}
