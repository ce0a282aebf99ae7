/**
 * The official runner's `run` over the legacy flow against svc (RUNNER-PROTOCOL.md §2.2-§2.9):
 * session, long poll, encrypted job message, acknowledgement, lock renewal, finish; and the
 * exception envelopes the Listener acts on.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { jobIdFor, planIdFor } from '../../plugins/runner-protocol/job-message/index.js';
import { delay, listenerHost, listeningRunner, queueRun } from './listener-fixture.js';
import { RUNNER_BACKENDS } from './runner-host.js';
import { ScriptedListener } from './scripted-listener.js';

const TYPE_NAME = (key: string) => `GitHub.DistributedTask.WebApi.${key}, GitHub.DistributedTask.WebApi, Version=14.0.0.0, Culture=neutral, PublicKeyToken=b03f5f7f11d50a3a`;

function endpointToken(message: Record<string, unknown>): string | undefined {
  const endpoints = (message['resources'] as { endpoints?: { name: string; authorization?: { parameters?: { AccessToken?: string } } }[] }).endpoints ?? [];
  return endpoints.find((e) => e.name === 'SystemVssConnection')?.authorization?.parameters?.AccessToken;
}

for (const backend of RUNNER_BACKENDS) {
  describe(`the official runner's run sequence, legacy flow (${backend.kind})`, { skip: backend.skip }, () => {
    it('takes a job queued by the engine: session, poll, decrypt, ack, renew, finish', async (t) => {
      const h = await listenerHost(t, backend.kind, { pollHoldMs: 10_000 });
      const listener = await listeningRunner(h, 'build-01');
      assert.deepEqual(listener.runner.calls.slice(-4), [
        'GET /_apis/connectionData 200',
        'POST /_apis/distributedtask/pools/1/sessions 401',
        'POST /_apis/oauth2/token 200',
        'POST /_apis/distributedtask/pools/1/sessions 200',
      ]);
      assert.equal((await h.host.app.inject({ method: 'GET', url: `/_apis/distributedtask/pools/1/agents/${listener.config.settings.agentId}`, headers: { authorization: `Bearer ${await listener.runner.accessToken(listener.config)}` } })).json().status, 'online');

      const polling = listener.poll();
      await delay(200);
      const { run, job } = await queueRun(h);
      const { result, message } = await polling;
      assert.equal(result.status, 200);
      assert.match(result.headers.get('content-type') ?? '', /^application\/json/);
      assert.ok(message, 'a message');
      assert.equal(message.messageType, 'PipelineAgentJobRequest');
      const body = message.body;
      assert.equal(body['messageType'], 'PipelineAgentJobRequest');
      assert.equal(body['requestId'], job.id);
      assert.equal(body['jobId'], jobIdFor(planIdFor(run), job));
      assert.equal((body['plan'] as { planId: string }).planId, planIdFor(run));
      assert.equal(body['jobDisplayName'], 'build');
      assert.ok(endpointToken(body), 'the SystemVssConnection carries the job token');

      // Runner.cs: the message is deleted after dispatch; JobDispatcher renews the lock first.
      assert.equal((await listener.deleteMessage(message.messageId)).status, 204);
      const renewed = await listener.renew(job.id);
      assert.equal(renewed.status, 200, JSON.stringify(renewed.body));
      const renewal = renewed.body as { requestId: number; lockedUntil: string; reservedAgent: { name: string } };
      assert.equal(renewal.requestId, job.id);
      assert.equal(Date.parse(renewal.lockedUntil), h.clock.now() + 90_000, 'the lock is 90 s from now (renewed every 60 s)');
      assert.equal(renewal.reservedAgent.name, 'build-01');
      assert.equal((await h.engine.getJob(job.id))?.leaseExpiresAt, h.clock.now() + 90_000, 'the engine lease follows the lock');

      const finished = await listener.finish(job.id, 'succeeded');
      assert.equal(finished.status, 200, JSON.stringify(finished.body));
      assert.equal((finished.body as { result?: string }).result, 'succeeded');
      assert.equal((await h.engine.getJob(job.id))?.status, 'success');
      assert.equal((await h.engine.getRun(run.id))?.status, 'success');
      const read = await listener.getJobRequest(job.id);
      assert.equal(read.status, 200);
      assert.equal((read.body as { result?: string }).result, 'succeeded', 'the finished request tells its result');

      // After the job, renewing stops the runner's renewal loop (§2.7).
      const late = await listener.renew(job.id);
      assert.equal(late.status, 403);
      assert.equal((late.body as { typeKey: string }).typeKey, 'TaskAgentJobTokenExpiredException');

      assert.equal((await listener.deleteSession()).status, 204);
      assert.deepEqual(listener.runner.calls.slice(-1), [`DELETE /_apis/distributedtask/pools/1/sessions/${listener.sessionId} 204`]);
    });

    it('fails a job whose runner stopped renewing within about a minute and a half, naming the runner; not while it renews', async (t) => {
      const h = await listenerHost(t, backend.kind, { pollHoldMs: 10_000 });
      const listener = await listeningRunner(h, 'build-01');
      const polling = listener.poll();
      await delay(200);
      const { run, job } = await queueRun(h);
      const { message } = await polling;
      assert.ok(message);
      assert.equal((await listener.renew(job.id)).status, 200);
      // A runner that keeps renewing every 60 s keeps its job, however long it runs.
      for (let minute = 0; minute < 5; minute++) {
        h.clock.advance(60_000);
        assert.equal((await h.engine.sweep()).lostJobs, 0);
        assert.equal((await listener.renew(job.id)).status, 200);
      }
      // Then the runner is gone (its machine died): no renewal any more.
      h.clock.advance(60_000);
      assert.equal((await h.engine.sweep()).lostJobs, 0, 'one missed renewal is not yet a lost runner');
      h.clock.advance(31_000);
      assert.equal((await h.engine.sweep()).lostJobs, 1, 'lost 91 s after its last renewal, not ten minutes');
      const lost = await h.engine.getJob(job.id);
      assert.equal(lost?.status, 'failure');
      assert.match(lost?.reason ?? '', /The self-hosted runner: build-01 lost communication with the server/);
      assert.equal((await h.engine.getRun(run.id))?.status, 'failure');
    });

    it('a job its Worker could not report (crashed, killed) fails with what happened, never with no reason', async (t) => {
      const h = await listenerHost(t, backend.kind, { pollHoldMs: 10_000 });
      const listener = await listeningRunner(h, 'build-01');
      const finishedBy = async (data: Record<string, string> | undefined) => {
        const polling = listener.poll();
        await delay(200);
        const { job } = await queueRun(h);
        const { message } = await polling;
        assert.ok(message);
        assert.equal((await listener.deleteMessage(message.messageId)).status, 204);
        assert.equal((await listener.renew(job.id)).status, 200);
        const finished = await listener.finish(job.id, 'failed', new Date().toISOString(), data);
        assert.equal(finished.status, 200, JSON.stringify(finished.body));
        return h.engine.getJob(job.id);
      };
      const killed = await finishedBy({ failureReason: 'The runner worker exited with signal SIGKILL before it reported the job.' });
      assert.equal(killed?.status, 'failure');
      assert.equal(killed?.reason, 'The runner worker exited with signal SIGKILL before it reported the job.');
      const unexplained = await finishedBy(undefined);
      assert.equal(unexplained?.status, 'failure');
      assert.match(unexplained?.reason ?? '', /worker ended without reporting the job \(it crashed or was killed\)/);
    });

    it('refuses a second live session with the conflict envelope the runner retries on, until the first ends', async (t) => {
      const h = await listenerHost(t, backend.kind);
      const first = await listeningRunner(h, 'build-01');
      const second = new ScriptedListener(first.runner, first.config);
      const conflict = await second.createSession();
      assert.equal(conflict.status, 409);
      assert.match(conflict.headers.get('content-type') ?? '', /^application\/json/);
      assert.deepEqual(conflict.body, {
        $id: '1',
        innerException: null,
        message: 'A session for this runner already exists.',
        typeName: TYPE_NAME('TaskAgentSessionConflictException'),
        typeKey: 'TaskAgentSessionConflictException',
        errorCode: 0,
        eventId: 3000,
      });

      // A listener that died without deleting its session: the session expires, the next one gets in.
      h.clock.advance(150_001);
      assert.equal((await second.createSession()).status, 200);
      const stale = await first.poll();
      assert.equal(stale.result.status, 404, 'the replaced session is gone');
      assert.equal((stale.result.body as { typeKey: string }).typeKey, 'TaskAgentSessionExpiredException');

      // An orderly stop deletes the session: a new one is accepted at once.
      assert.equal((await second.deleteSession()).status, 204);
      assert.equal((await new ScriptedListener(first.runner, first.config).createSession()).status, 200);
    });

    it('expires the session of a listener that stopped polling: its runner goes offline', async (t) => {
      const h = await listenerHost(t, backend.kind, { sweepIntervalMs: 50 });
      const listener = await listeningRunner(h, 'build-01');
      const token = await listener.runner.accessToken(listener.config);
      const status = async () =>
        (await h.host.app.inject({ method: 'GET', url: `/_apis/distributedtask/pools/1/agents/${listener.config.settings.agentId}`, headers: { authorization: `Bearer ${token}` } })).json<{ status: string }>().status;
      assert.equal(await status(), 'online');
      h.clock.advance(150_001);
      for (let i = 0; i < 100 && (await status()) !== 'offline'; i++) await delay(20);
      assert.equal(await status(), 'offline');
      assert.equal((await listener.poll()).result.status, 404, 'its next poll is told the session expired');
    });

    it('answers an unknown session, another runner\'s job and a wrong pool with the exceptions the runner maps', async (t) => {
      const h = await listenerHost(t, backend.kind, { pollHoldMs: 10_000 });
      const owner = await listeningRunner(h, 'build-01');
      const other = await listeningRunner(h, 'build-02', { labels: ['other'] });

      const unknown = await owner.poll({ sessionId: '6a3f8f3e-2f1b-4a63-9f3b-0d3f4e1d5c21' });
      assert.equal(unknown.result.status, 404);
      assert.equal((unknown.result.body as { typeName: string }).typeName, TYPE_NAME('TaskAgentSessionExpiredException'));
      const foreign = await owner.poll({ sessionId: other.sessionId });
      assert.equal((foreign.result.body as { typeKey: string }).typeKey, 'TaskAgentSessionExpiredException', "another runner's session is not this runner's");

      const { job } = await queueRun(h);
      const { message } = await owner.poll();
      assert.ok(message);
      for (const attempt of [await other.renew(job.id), await other.getJobRequest(job.id), await other.finish(job.id, 'failed'), await owner.renew(999_999)]) {
        assert.equal(attempt.status, 404);
        assert.equal((attempt.body as { typeKey: string }).typeKey, 'TaskAgentJobNotFoundException');
      }
      assert.equal((await h.engine.getJob(job.id))?.status, 'in_progress', "another runner's finish changed nothing");

      const wrongPool = await owner.call('134e239e-2df3-4794-a6f6-24f1f19ec8dc', {
        method: 'POST',
        route: { poolId: 2 },
        json: { sessionId: '00000000-0000-0000-0000-000000000000', ownerName: 'x', agent: { id: owner.config.settings.agentId, name: 'build-01', version: '2.337.0' }, useFipsEncryption: false },
      });
      assert.equal(wrongPool.status, 404);
      assert.equal((wrongPool.body as { typeKey: string }).typeKey, 'TaskAgentNotFoundException');
      const anon = await fetch(`${h.baseUrl}/_apis/distributedtask/pools/1/messages?sessionId=${owner.sessionId}`);
      assert.equal(anon.status, 401);
      assert.match(anon.headers.get('www-authenticate') ?? '', /Bearer/);
    });
  });
}
