/**
 * Who may report what: a job token opens its own job's routes only (jobs of one run share its
 * plan and timeline, so the records, logs, feed and events a route touches are checked too), an
 * expired or missing token gets the Bearer challenge, and a token whose job is gone or re-run
 * gets the plan exceptions the runner acts on (§2.9).
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { describe, it } from 'node:test';
import type { JsonObject } from '../../core/protocol/index.js';
import { jobTokenTtlSeconds } from '../../plugins/runner-protocol/auth/index.js';
import { runnerHost, RUNNER_BACKENDS } from './runner-host.js';
import { logPage, ScriptedWorker, timelineRecord } from './scripted-worker.js';
import type { HttpResult } from './vss-client.js';
import { createRun, dispatchNext, jobTokensOf } from './worker-job.js';

const TWO_JOBS = `name: ci
on: push
jobs:
  a:
    runs-on: [self-hosted]
    steps:
      - run: echo a
  b:
    runs-on: [self-hosted]
    steps:
      - run: exit 1
`;

function refused(result: HttpResult, status: number, typeKey: string): void {
  assert.equal(result.status, status, JSON.stringify(result.body));
  assert.equal((result.body as JsonObject)['typeKey'], typeKey);
  assert.match(String((result.body as JsonObject)['typeName']), new RegExp(`^GitHub\\.DistributedTask\\.WebApi\\.${typeKey}, `));
}

for (const backend of RUNNER_BACKENDS) {
  describe(`worker api: job tokens (${backend.kind})`, { skip: backend.skip }, () => {
    it("a job's token is refused on another job's records, logs, feed and completion", async (t) => {
      const h = await runnerHost(t, { kind: backend.kind });
      const run = await createRun(h, TWO_JOBS);
      const a = await dispatchNext(h);
      const b = await dispatchNext(h);
      assert.deepEqual([a.assignment.job.jobKey, b.assignment.job.jobKey], ['a', 'b']);
      assert.equal(a.info.planId, b.info.planId, 'jobs of a run share its plan and timeline');
      const wa = new ScriptedWorker(a.info);
      await wa.connect();
      // b's Worker, but holding its own token while addressing a's things.
      const wb = new ScriptedWorker(b.info);
      await wb.connect();

      assert.equal((await wa.updateRecords([timelineRecord({ id: a.info.jobId, type: 'Job', name: 'a', state: 'inProgress' })])).status, 200);
      const { logId } = await wa.uploadLog(a.info.steps[0]?.id ?? '', ['a']);

      refused(await wb.updateRecords([timelineRecord({ id: a.info.jobId, type: 'Job', name: 'a', state: 'completed', result: 'failed' })]), 403, 'TaskOrchestrationPlanSecurityException');
      refused(await wb.updateRecords([timelineRecord({ id: randomUUID(), parentId: a.info.jobId, order: 9, name: 'sneaky', state: 'completed', result: 'failed' })]), 403, 'TaskOrchestrationPlanSecurityException');
      refused(await wb.appendLog(logId, logPage(['not yours'])), 403, 'TaskOrchestrationPlanSecurityException');
      const feedOfA = await fetch(wb.url('858983e4-19bd-4c5e-864c-507b59b58b12', { timelineId: a.info.timelineId, recordId: a.info.jobId }), {
        method: 'POST',
        headers: { ...wb.auth, 'content-type': 'application/json' },
        body: JSON.stringify({ count: 1, value: ['x'], stepId: a.info.steps[0]?.id }),
      });
      assert.equal(feedOfA.status, 403);
      refused(await wb.jobCompleted('failed', {}, a.info.jobId), 403, 'TaskOrchestrationPlanSecurityException');
      assert.equal((await h.engine.getJob(a.assignment.job.id))?.status, 'in_progress', "a is untouched by b's token");

      // a token of another run's plan does not open this plan's routes at all
      const other = await createRun(h, TWO_JOBS);
      const foreign = await dispatchNext(h);
      assert.equal(foreign.assignment.run.id, other.id);
      refused(await wa.withToken(foreign.info.token).updateRecords([timelineRecord({ id: randomUUID(), parentId: a.info.jobId, order: 2, state: 'pending' })]), 403, 'TaskOrchestrationPlanSecurityException');

      // b reports its own failure; a's timeline does not show b's records.
      const failure = { type: 'error', category: 'General', message: 'Process completed with exit code 1.', data: { stepNumber: '2', logFileLineNumber: '3' } };
      assert.equal((await wb.updateRecords([timelineRecord({ id: b.info.steps[0]?.id ?? '', parentId: b.info.jobId, order: 2, name: 'Run exit 1', state: 'completed', result: 'failed', errorCount: 1, issues: [failure] })])).status, 200);
      assert.equal((await wb.jobCompleted('failed')).status, 204);
      const timelineOfA = (await wa.getTimeline()).body as JsonObject;
      assert.deepEqual((timelineOfA['records'] as JsonObject[]).map((record) => record['id']).sort(), [a.info.jobId, a.info.steps[0]?.id].sort());
      const jobB = await h.engine.getJob(b.assignment.job.id);
      assert.deepEqual([jobB?.status, jobB?.conclusion], ['failure', 'failure']);
      const steps = await h.reporting.listSteps(run.id);
      assert.deepEqual(steps.filter((s) => s.jobId === b.assignment.job.id).map((s) => [s.number, s.status]), [[2, 'failure']]);

      assert.equal((await wa.jobCompleted('succeeded')).status, 204);
      assert.equal((await h.engine.getRun(run.id))?.status, 'failure');
    });

    it('a missing, expired or stranger token gets the Bearer challenge; a gone job the plan exceptions', async (t) => {
      const h = await runnerHost(t, { kind: backend.kind });
      await createRun(h, TWO_JOBS);
      const a = await dispatchNext(h);
      const w = new ScriptedWorker(a.info);
      await w.connect();

      const anonymous = await fetch(w.url('83597576-cc2c-453c-bea6-2882ae6a1653', { timelineId: a.info.timelineId }));
      assert.equal(anonymous.status, 401);
      assert.equal(anonymous.headers.get('www-authenticate'), 'Bearer');
      const runnerToken = w.withToken('not-a-job-token');
      assert.equal((await runnerToken.getTimeline()).status, 401);

      const tokens = await jobTokensOf(h);
      const gone = await tokens.mintJobToken({ ...a.claims, jobId: 9999 }, 600);
      refused(await w.withToken(gone).jobCompleted('succeeded'), 404, 'TaskOrchestrationPlanNotFoundException');
      refused(await w.withToken(gone).updateRecords([]), 404, 'TaskOrchestrationPlanNotFoundException');
      const oldAttempt = await tokens.mintJobToken({ ...a.claims, attempt: 0 }, 600);
      refused(await w.withToken(oldAttempt).jobCompleted('succeeded'), 409, 'TaskOrchestrationPlanTerminatedException');

      // The plan's own timeline exists; the runner ignores this answer.
      const exists = await w.createTimeline(a.info.timelineId);
      assert.equal(exists.status, 409);
      assert.equal((exists.body as JsonObject)['typeKey'], 'TimelineExistsException');

      h.clock.advance((jobTokenTtlSeconds(a.assignment.job.timeoutMinutes) + 1) * 1000);
      const expired = await w.getTimeline();
      assert.equal(expired.status, 401);
      assert.equal(expired.headers.get('www-authenticate'), 'Bearer');
    });
  });
}
