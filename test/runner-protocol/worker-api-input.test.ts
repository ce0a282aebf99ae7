/**
 * Bad input to the Worker's routes is a 400 with the VSS envelope (never a 500), and changes
 * nothing; the runner's own spellings (enum codes, any-case names, PascalCase members) are
 * accepted.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { JsonObject } from '../../core/protocol/index.js';
import { runnerHost, RUNNER_BACKENDS } from './runner-host.js';
import { ScriptedWorker, timelineRecord, WORKER_LOCATION } from './scripted-worker.js';
import type { HttpResult } from './vss-client.js';
import { createRun, dispatchNext, ONE_STEP_WORKFLOW } from './worker-job.js';


function badRequest(result: HttpResult | { status: number; body: unknown }, what: string): void {
  assert.equal(result.status, 400, `${what}: ${JSON.stringify(result.body)}`);
  assert.equal((result.body as JsonObject)['typeKey'], 'VssServiceException', what);
  assert.ok(String((result.body as JsonObject)['message']).length > 0, what);
}

for (const backend of RUNNER_BACKENDS) {
  describe(`worker api: bad input (${backend.kind})`, { skip: backend.skip }, () => {
    it('malformed bodies get 400s that say what is wrong, and store nothing', async (t) => {
      const h = await runnerHost(t, { kind: backend.kind });
      const run = await createRun(h, ONE_STEP_WORKFLOW);
      const job = await dispatchNext(h);
      const w = new ScriptedWorker(job.info);
      await w.connect();
      const jobId = w.job.jobId;
      const stepId = w.job.steps[0]?.id ?? '';
      const records = w.url(WORKER_LOCATION.records, { timelineId: w.job.timelineId });
      const raw = async (method: string, url: string, body: string, type = 'application/json') => {
        const response = await fetch(url, { method, headers: { ...w.auth, 'content-type': type }, body });
        const text = await response.text();
        return { status: response.status, body: text === '' ? undefined : (JSON.parse(text) as unknown) };
      };

      badRequest(await raw('PATCH', records, '{"count": 1, "value": [{"id": '), 'truncated JSON');
      badRequest(await raw('PATCH', records, JSON.stringify([timelineRecord({ id: jobId })])), 'a bare list instead of {count, value}');
      badRequest(await raw('PATCH', records, 'state=completed', 'application/x-www-form-urlencoded'), 'not JSON at all');
      badRequest(await w.updateRecords([{ id: 'not-a-guid', state: 'completed' }]), 'a record id that is no GUID');
      badRequest(await w.updateRecords([timelineRecord({ id: stepId, parentId: jobId, order: 2, state: 'finished' })]), 'an unknown state');
      badRequest(await w.updateRecords([timelineRecord({ id: stepId, parentId: jobId, order: 2, state: 'completed', result: 42 })]), 'a result code out of range');
      badRequest(await w.updateRecords([timelineRecord({ id: stepId, parentId: jobId, order: 2, startTime: 'yesterday' })]), 'a date that is no date');
      badRequest(await w.updateRecords([timelineRecord({ id: stepId, parentId: jobId, order: 'two' })]), 'an order that is no integer');
      badRequest(await w.updateRecords([timelineRecord({ id: stepId, parentId: jobId, order: 2, issues: [{ type: 'fatal', message: 'x' }] })]), 'an unknown issue type');
      badRequest(await w.updateRecords([timelineRecord({ id: stepId, parentId: jobId, order: 2, issues: [{ type: 'error', message: 'x', data: { line: 3 } }] })]), 'issue data that is not text');
      badRequest(await w.updateRecords([timelineRecord({ id: stepId, parentId: jobId, order: 2, log: { id: 'seven' } })]), 'a log reference without an integer id');

      badRequest(await raw('POST', w.url(WORKER_LOCATION.logs, {}), '{}'), 'a log without a path');
      badRequest(await w.sendBytes('POST', w.url(WORKER_LOCATION.logs, { logId: 'abc' }), Buffer.from('x')), 'a log id that is no number');
      const missing = await w.appendLog(999_999, Buffer.from('x\n'));
      assert.equal(missing.status, 404, JSON.stringify(missing.body));
      const feed = w.url(WORKER_LOCATION.feed, { timelineId: w.job.timelineId, recordId: jobId });
      badRequest(await raw('POST', feed, JSON.stringify({ count: 1, value: { line: 'hello' }, stepId })), 'feed lines that are no list');
      const events = w.url(WORKER_LOCATION.events, {});
      badRequest(await raw('POST', events, JSON.stringify({ jobId, result: 'succeeded' })), 'an event without a name');
      badRequest(await raw('POST', events, JSON.stringify({ name: 'JobCompleted', result: 'succeeded' })), 'JobCompleted without the job id');
      badRequest(await raw('POST', events, JSON.stringify({ name: 'JobCompleted', jobId })), 'JobCompleted without a result');
      badRequest(await w.jobCompleted('great'), 'an unknown result');
      badRequest(await raw('POST', events, JSON.stringify({ name: 'JobCompleted', jobId, result: 'succeeded', outputs: { n: { value: 5 } } })), 'an output that is no string');
      badRequest(await w.createTimeline('not-a-guid'), 'a timeline id that is no GUID');

      assert.equal((await h.engine.getJob(job.assignment.job.id))?.status, 'in_progress', 'nothing completed the job');
      assert.deepEqual(await h.reporting.listSteps(run.id), [], 'no step was stored');
      const timeline = (await w.getTimeline()).body as JsonObject;
      assert.deepEqual((timeline['records'] as JsonObject[]).map((record) => [record['id'], record['type'], record['state']]), [[jobId, 'Job', 'inProgress']], 'only the job record the server made up');
    });

    it("takes the runner's other spellings: enum codes, any-case names, PascalCase members", async (t) => {
      const h = await runnerHost(t, { kind: backend.kind });
      const run = await createRun(h, ONE_STEP_WORKFLOW);
      const job = await dispatchNext(h);
      const w = new ScriptedWorker(job.info);
      await w.connect();
      const stepId = w.job.steps[0]?.id ?? '';
      const pascal = { Id: stepId.toUpperCase(), ParentId: w.job.jobId, Type: 'Task', Name: 'Run echo hi', Order: 2, State: 2, Result: 'SucceededWithIssues', StartTime: '2030-01-01T00:00:01.1234567Z', FinishTime: '2030-01-01T00:00:02Z', Issues: [{ Type: 2, Message: 'careful', Data: { File: 'a.sh', Line: '1' } }] };
      const answer = await w.updateRecords([pascal as unknown as JsonObject]);
      assert.equal(answer.status, 200, JSON.stringify(answer.body));
      const [stored] = (answer.body as { value: JsonObject[] }).value;
      assert.deepEqual([stored?.['id'], stored?.['state'], stored?.['result']], [stepId, 'completed', 'succeededWithIssues']);
      assert.deepEqual((await h.reporting.listSteps(run.id)).map((s) => [s.number, s.status, s.conclusion, s.startedAt]), [[2, 'success', 'success', Date.UTC(2030, 0, 1, 0, 0, 1, 123)]]);
      assert.equal((await w.jobCompleted('0')).status, 204, 'TaskResult as a code in text');
      assert.equal((await h.engine.getJob(job.assignment.job.id))?.status, 'success');
      const events = await h.engine.events(run.id);
      const annotation = events.map((e) => e.event).find((event) => event.type === 'annotation');
      assert.deepEqual(annotation, { type: 'annotation', run_id: run.id, job_id: job.assignment.job.id, level: 'warning', message: 'careful', file: 'a.sh', line: 1 });
    });
  });
}
