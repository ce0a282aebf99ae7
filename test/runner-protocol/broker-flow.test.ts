/**
 * The official runner's `run` over the broker + run-service flow against svc (RUNNER-PROTOCOL.md
 * §2.5-§2.8): a runner configured while SVC_RUNNER_FLOW=broker gets UseV2Flow, opens a broker
 * session, long-polls a plain `RunnerJobRequest`, acknowledges, acquires the job message, renews
 * with the job token and completes; a legacy session is moved over by BrokerMigration; errors come
 * in the broker and run-service envelopes the runner acts on.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { RunnerJobRequestBody } from '../../core/protocol/index.js';
import { jobIdFor, planIdFor } from '../../plugins/runner-protocol/job-message/index.js';
import { acquiredJob, assertEnvelope, brokerHost, brokerRunner } from './broker-fixture.js';
import { delay, queueRun } from './listener-fixture.js';
import { RUNNER_BACKENDS } from './runner-host.js';
import { ScriptedBroker } from './scripted-broker.js';
import { ScriptedListener } from './scripted-listener.js';
import { ScriptedRunner } from './scripted-runner.js';

for (const backend of RUNNER_BACKENDS) {
  describe(`the official runner's run sequence, broker flow (${backend.kind})`, { skip: backend.skip }, () => {
    it('session, poll, acknowledge, acquirejob, renewjob, completejob, delete session', async (t) => {
      const h = await brokerHost(t, backend.kind);
      const broker = await brokerRunner(h, 'broker-01');
      assert.equal(broker.brokerUrl, `${h.baseUrl}/broker/`);
      assert.deepEqual(broker.runner.calls.slice(-3), ['POST /broker/session 401', 'POST /_apis/oauth2/token 200', 'POST /broker/session 200']);

      const polling = broker.nextMessage();
      await delay(200);
      const { run, job } = await queueRun(h, ['linux']);
      const message = await polling;
      assert.equal(message.messageType, 'RunnerJobRequest');
      assert.equal(message.iv, undefined, 'broker messages are not encrypted');
      const reference = JSON.parse(message.body ?? '{}') as RunnerJobRequestBody & Record<string, unknown>;
      assert.equal(reference.runner_request_id, String(job.id));
      assert.equal(reference.run_service_url, `${h.baseUrl}/run-service/`);
      assert.equal(reference.should_acknowledge, true);
      assert.equal(reference['steps'], undefined, 'the poll never carries the job message');

      assert.equal((await broker.acknowledge(reference.runner_request_id)).status, 200);
      const acquired = await broker.acquire(reference);
      assert.equal(acquired.status, 200, JSON.stringify(acquired.body));
      const jobMessage = acquiredJob(acquired.body as Record<string, unknown>);
      assert.equal(jobMessage.body['messageType'], 'RunnerJobRequest');
      assert.equal(jobMessage.ids.planId, planIdFor(run));
      assert.equal(jobMessage.ids.jobId, jobIdFor(planIdFor(run), job));
      assert.equal(jobMessage.systemUrl, reference.run_service_url, 'renewjob/completejob go to the run service');

      const again = await broker.acquire(reference);
      assert.equal(again.status, 409);
      assertEnvelope(again.body, { source: 'actions-run-service', statusCode: 409 });

      const renewed = await broker.renew(jobMessage.systemUrl, jobMessage.token, jobMessage.ids);
      assert.equal(renewed.status, 200, JSON.stringify(renewed.body));
      assert.equal(Date.parse((renewed.body as { lockedUntil: string }).lockedUntil), h.clock.now() + 90_000, 'the lock is 90 s from now (renewed every 60 s)');
      assert.equal((await h.engine.getJob(job.id))?.leaseExpiresAt, h.clock.now() + 90_000, 'the engine lease follows the lock');
      assert.equal((await broker.poll('Busy')).message, undefined, 'a busy runner is handed nothing else');

      const completed = await broker.complete(jobMessage.systemUrl, jobMessage.token, jobMessage.ids, 'succeeded', { greeting: { value: 'hello' } });
      assert.equal(completed.status, 200, JSON.stringify(completed.body));
      const finished = await h.engine.getJob(job.id);
      assert.equal(finished?.status, 'success');
      assert.deepEqual(finished?.outputs, { greeting: 'hello' });
      // A repeat (the first answer was lost) is answered and changes nothing; anything else of a
      // finished job's token is refused (401: the runner stops at once on it, §4.8).
      assert.equal((await broker.complete(jobMessage.systemUrl, jobMessage.token, jobMessage.ids, 'failed')).status, 200, 'a repeat is answered');
      assert.equal((await h.engine.getJob(job.id))?.conclusion, 'success', 'a repeat changes nothing');
      const late = await broker.renew(jobMessage.systemUrl, jobMessage.token, jobMessage.ids);
      assert.equal(late.status, 404, 'renewing a finished job stops renewal');
      assertEnvelope(late.body, { source: 'actions-run-service', statusCode: 404 });
      assert.equal((await broker.acknowledge(reference.runner_request_id)).status, 404, 'a finished request is not acknowledged');

      assert.equal((await broker.deleteSession()).status, 204);
      assertEnvelope((await broker.poll()).result.body, { source: 'actions-broker-listener', errorKind: 'RunnerSessionInvalid' });
    });

    it('answers in the broker and run-service envelopes', async (t) => {
      const h = await brokerHost(t, backend.kind);
      const broker = await brokerRunner(h, 'broker-01');
      const conflict = await broker.createSession();
      assert.equal(conflict.status, 409, 'one live session per runner');

      const invalid = await broker.poll('Online', '11111111-2222-3333-4444-555555555555');
      assertEnvelope(invalid.result.body, { source: 'actions-broker-listener', errorKind: 'RunnerSessionInvalid', statusCode: invalid.result.status });
      const ack = await broker.acknowledge('424242');
      assert.equal(ack.status, 404);
      assertEnvelope(ack.body, { source: 'actions-broker-listener', errorKind: 'AcknowledgeJobNotFound', statusCode: 404 });
      const acquire = await broker.acquire({ runner_request_id: '424242', run_service_url: `${h.baseUrl}/run-service/` });
      assertEnvelope(acquire.body, { source: 'actions-run-service', statusCode: 404 });

      const polling = broker.nextMessage();
      await delay(200);
      const { job } = await queueRun(h, ['linux']);
      const reference = JSON.parse((await polling).body ?? '{}') as RunnerJobRequestBody;
      const jobMessage = acquiredJob((await broker.acquire(reference)).body as Record<string, unknown>);
      const wrong = await broker.renew(jobMessage.systemUrl, jobMessage.token, { planId: jobMessage.ids.planId, jobId: '00000000-0000-0000-0000-000000000001' });
      assertEnvelope(wrong.body, { source: 'actions-run-service', statusCode: 404 });
      const unknown = await broker.complete(jobMessage.systemUrl, jobMessage.token, jobMessage.ids, 'bogus' as 'failed');
      assert.equal(unknown.status, 400, 'an unknown conclusion is refused by the schema');
      const noToken = await broker.renew(jobMessage.systemUrl, 'not-a-token', jobMessage.ids);
      assert.equal(noToken.status, 401);
      assert.equal((await h.engine.getJob(job.id))?.status, 'in_progress');
    });

    it('moves a legacy session to the broker with BrokerMigration', async (t) => {
      const h = await brokerHost(t, backend.kind);
      const runner = new ScriptedRunner({ url: `${h.baseUrl}/acme/widgets`, token: h.systemToken, name: 'legacy-01', clock: h.clock });
      // Configured on the legacy path (agents resource), as before the switch; the agent answers
      // UseV2Flow now, but a runner configured before the switch still has useV2Flow false in its .runner.
      const config = await runner.configure({ labels: ['linux'], legacyPath: true });
      assert.equal(config.settings.useV2Flow, true, 'the agents resource says UseV2Flow');
      const listener = new ScriptedListener(runner, { ...config, settings: { ...config.settings, useV2Flow: false } });
      await listener.openSession();
      const migration = await listener.nextMessage();
      assert.equal(migration.messageType, 'BrokerMigration');
      const brokerBaseUrl = String(migration.body['brokerBaseUrl']);
      assert.equal(brokerBaseUrl, `${h.baseUrl}/broker/`);

      const broker = new ScriptedBroker(runner, config, brokerBaseUrl);
      broker.adoptSession(listener.sessionId);
      const polling = broker.nextMessage();
      await delay(200);
      const { run, job } = await queueRun(h, ['linux']);
      const message = await polling;
      assert.equal(message.messageType, 'RunnerJobRequest');
      // MessageListener deletes the processed broker message's id on the legacy queue: ignored.
      assert.equal((await listener.deleteMessage(message.messageId)).status, 204);
      const reference = JSON.parse(message.body ?? '{}') as RunnerJobRequestBody;
      const acquired = await broker.acquire(reference);
      assert.equal(acquired.status, 200, JSON.stringify(acquired.body));
      assert.equal((acquired.body as { jobId: string }).jobId, jobIdFor(planIdFor(run), job));
      assert.equal((await listener.nextMessage()).messageType, 'BrokerMigration', 'the legacy queue keeps answering BrokerMigration');
    });

    it('never hands one job to two runners', async (t) => {
      const h = await brokerHost(t, backend.kind);
      const first = await brokerRunner(h, 'broker-01');
      const second = await brokerRunner(h, 'broker-02');
      const polls = [first.poll(), second.poll()];
      await delay(200);
      const { job } = await queueRun(h, ['linux']);
      const answers = await Promise.all(polls);
      const winners = answers.filter((answer) => answer.message !== undefined);
      assert.equal(winners.length, 1, 'exactly one runner gets the job');
      const loser = answers[0]?.message === undefined ? first : second;
      const winner = loser === first ? second : first;
      const reference = JSON.parse(winners[0]?.message?.body ?? '{}') as RunnerJobRequestBody;
      assert.equal(reference.runner_request_id, String(job.id));

      const stolen = await loser.acquire(reference);
      assertEnvelope(stolen.body, { source: 'actions-run-service', statusCode: 404 });
      assert.equal((await loser.acknowledge(reference.runner_request_id)).status, 404);
      assert.equal((await winner.acquire(reference)).status, 200, 'the runner it was handed to still acquires it');
      assert.equal((await loser.poll()).message, undefined, 'the other runner gets nothing on its next poll');
    });
  });
}
