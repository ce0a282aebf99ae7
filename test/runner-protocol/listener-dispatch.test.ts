/**
 * Who gets which job over the legacy long poll, and when (RUNNER-PROTOCOL.md §2.3, §2.7, §4.9):
 * wake-up on queueing, the empty answer after the hold, labels, one job per runner and per job,
 * cancellation messages, and polls ending when the host stops.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { jobIdFor, planIdFor } from '../../plugins/runner-protocol/job-message/index.js';
import { delay, listenerHost, listeningRunner, queueRun } from './listener-fixture.js';
import { RUNNER_BACKENDS } from './runner-host.js';
import type { ScriptedListener } from './scripted-listener.js';

/** Takes the job in the message the way the Listener does: acknowledge, then the first lock renewal. */
async function accept(listener: ScriptedListener, messageId: number, requestId: number): Promise<void> {
  assert.equal((await listener.deleteMessage(messageId)).status, 204);
  assert.equal((await listener.renew(requestId)).status, 200);
}

for (const backend of RUNNER_BACKENDS) {
  describe(`legacy long poll and dispatch (${backend.kind})`, { skip: backend.skip }, () => {
    it('wakes a waiting poll within milliseconds of a job being queued', async (t) => {
      const h = await listenerHost(t, backend.kind, { pollHoldMs: 20_000 });
      const listener = await listeningRunner(h, 'build-01');
      const polling = listener.poll();
      await delay(300);
      const { job } = await queueRun(h);
      const queuedAt = performance.now();
      const { message } = await polling;
      const latencyMs = performance.now() - queuedAt;
      assert.equal(message?.body['requestId'], job.id);
      t.diagnostic(`queued -> delivered to the waiting poll: ${latencyMs.toFixed(1)} ms (${backend.kind})`);
      // A wake-up by notification, not the engine's 5 s re-read nor the 20 s hold: the poll waited
      // 300 ms before the job was queued, so a re-read could deliver it 4.7 s after at the earliest.
      // (How fast the wake-up is, is bench:protocol's figure; this only tells the mechanism apart.)
      assert.ok(latencyMs < 4500, `delivered ${latencyMs.toFixed(0)} ms after queueing: by the re-read, not a wake-up`);
    });

    it('hands no job to a poll that says Busy (its Worker may still be exiting); the next Online poll gets it', async (t) => {
      const h = await listenerHost(t, backend.kind, { pollHoldMs: 600 });
      const listener = await listeningRunner(h, 'build-01');
      const { job } = await queueRun(h);
      const busy = await listener.poll({ status: 'Busy' });
      assert.equal(busy.result.status, 204, 'a busy poll ends empty although a job is queued');
      assert.equal((await h.engine.getJob(job.id))?.status, 'queued', 'the job was not claimed for the busy runner');
      const online = await listener.poll();
      assert.equal(online.message?.body['requestId'], job.id);
    });

    it('answers an empty 204 when the hold ends with nothing to send, and the session lives on', async (t) => {
      const h = await listenerHost(t, backend.kind, { pollHoldMs: 300 });
      const listener = await listeningRunner(h, 'build-01');
      const empty = await listener.poll();
      assert.equal(empty.result.status, 204);
      assert.equal(empty.result.body, undefined, 'no body: the runner reads "no message"');
      assert.ok(empty.elapsedMs >= 250, `held ${empty.elapsedMs.toFixed(0)} ms`);
      const { job } = await queueRun(h);
      assert.equal((await listener.poll()).message?.body['requestId'], job.id, 'the same session takes the next job');
    });

    it('stops waiting when the runner hangs up: a job queued afterwards waits for its next poll', async (t) => {
      const h = await listenerHost(t, backend.kind, { pollHoldMs: 20_000 });
      const listener = await listeningRunner(h, 'build-01');
      const hangUp = new AbortController();
      const abandoned = listener.poll({ signal: hangUp.signal }).catch((error: unknown) => error);
      await delay(200);
      hangUp.abort();
      assert.ok((await abandoned) instanceof Error, 'the client gave up');
      await delay(200);
      const { job } = await queueRun(h);
      await delay(300);
      assert.equal((await h.engine.getJob(job.id))?.status, 'queued', 'the abandoned poll claimed nothing');
      assert.equal((await listener.poll()).message?.body['requestId'], job.id);
    });

    it('gives a job only to a runner whose labels match', async (t) => {
      const h = await listenerHost(t, backend.kind, { pollHoldMs: 600 });
      const plain = await listeningRunner(h, 'plain-01');
      const gpu = await listeningRunner(h, 'gpu-01', { labels: ['gpu'] });
      const { job } = await queueRun(h, ['self-hosted', 'gpu']);
      const unmatched = await plain.poll();
      assert.equal(unmatched.result.status, 204, 'no runner without the gpu label gets it');
      assert.equal((await h.engine.getJob(job.id))?.status, 'queued');
      assert.equal((await gpu.poll()).message?.body['requestId'], job.id);
    });

    it('never hands one job to two runners', async (t) => {
      const h = await listenerHost(t, backend.kind, { pollHoldMs: 1500 });
      const runners = await Promise.all(['build-01', 'build-02', 'build-03'].map((name) => listeningRunner(h, name)));
      const polls = runners.map((runner) => runner.poll());
      await delay(300);
      const { job } = await queueRun(h);
      const results = await Promise.all(polls);
      const winners = results.filter((r) => r.message !== undefined);
      assert.equal(winners.length, 1, `one runner got it: ${results.map((r) => r.result.status).join(', ')}`);
      assert.equal(winners[0]?.message?.body['requestId'], job.id);
      assert.deepEqual(results.filter((r) => r.message === undefined).map((r) => r.result.status), [204, 204]);
    });

    it('gives a runner holding a job no other until that job is over', async (t) => {
      const h = await listenerHost(t, backend.kind, { pollHoldMs: 600 });
      const listener = await listeningRunner(h, 'build-01');
      const first = await queueRun(h);
      const got = await listener.nextMessage();
      await accept(listener, got.messageId, first.job.id);
      const second = await queueRun(h);
      assert.equal((await listener.poll()).result.status, 204, 'busy: no second job (the runner would stop on it)');
      assert.equal((await h.engine.getJob(second.job.id))?.status, 'queued');
      assert.equal((await listener.finish(first.job.id, 'failed')).status, 200);
      assert.equal((await h.engine.getJob(first.job.id))?.status, 'failure');
      assert.equal((await listener.poll()).message?.body['requestId'], second.job.id);
    });

    it('hands an ephemeral runner one job only', async (t) => {
      const h = await listenerHost(t, backend.kind, { pollHoldMs: 500 });
      const listener = await listeningRunner(h, 'ephemeral-01', { ephemeral: true });
      const first = await queueRun(h);
      const got = await listener.nextMessage();
      await accept(listener, got.messageId, first.job.id);
      assert.equal((await listener.finish(first.job.id, 'succeeded')).status, 200);
      const second = await queueRun(h);
      assert.equal((await listener.poll()).result.status, 204);
      assert.equal((await h.engine.getJob(second.job.id))?.status, 'queued');
    });

    it('sends a JobCancellation to the runner running a job whose run is cancelled', async (t) => {
      const h = await listenerHost(t, backend.kind, { pollHoldMs: 10_000 });
      const listener = await listeningRunner(h, 'build-01');
      const { run, job } = await queueRun(h);
      const got = await listener.nextMessage();
      await accept(listener, got.messageId, job.id);

      const polling = listener.poll();
      await delay(300);
      const cancelledAt = performance.now();
      await h.engine.cancelRun(run.id);
      const { message } = await polling;
      t.diagnostic(`cancel -> JobCancellation delivered: ${(performance.now() - cancelledAt).toFixed(1)} ms`);
      assert.equal(message?.messageType, 'JobCancellation');
      assert.deepEqual(message.body, { jobId: jobIdFor(planIdFor(run), job), timeout: '00:05:00' });
      assert.equal((await listener.deleteMessage(message.messageId)).status, 204);

      // The Worker winds down: the lock still renews until it reports the job cancelled.
      assert.equal((await listener.renew(job.id)).status, 200);
      assert.equal((await listener.finish(job.id, 'canceled')).status, 200);
      assert.equal((await h.engine.getJob(job.id))?.status, 'cancelled');
      assert.equal((await h.engine.getRun(run.id))?.status, 'cancelled');
    });

    it('ends a job cancelled before its runner accepted it, without a cancellation message', async (t) => {
      const h = await listenerHost(t, backend.kind, { pollHoldMs: 500 });
      const listener = await listeningRunner(h, 'build-01');
      const { run, job } = await queueRun(h);
      const got = await listener.nextMessage();
      assert.equal((await listener.deleteMessage(got.messageId)).status, 204);
      await h.engine.cancelRun(run.id);
      assert.equal((await listener.poll()).result.status, 204);
      assert.equal((await h.engine.getJob(job.id))?.status, 'cancelled', 'no Worker ran it, so svc ends it');
      const late = await listener.renew(job.id);
      assert.equal((late.body as { typeKey: string }).typeKey, 'TaskAgentJobTokenExpiredException', 'a late first renewal makes the runner drop it');
    });

    it('ends waiting polls at once when the host stops', async (t) => {
      const h = await listenerHost(t, backend.kind, { pollHoldMs: 30_000 });
      const listeners = await Promise.all(['build-01', 'build-02'].map((name) => listeningRunner(h, name)));
      const polls = listeners.map((listener) => listener.poll());
      await delay(300);
      const stoppedAt = performance.now();
      await h.host.stop();
      const results = await Promise.all(polls);
      assert.deepEqual(results.map((r) => r.result.status), [204, 204]);
      assert.ok(performance.now() - stoppedAt < 10_000, 'the polls did not wait for their hold');
    });
  });
}
