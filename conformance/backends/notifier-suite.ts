/**
 * What every notifier must do: deliver wake-ups to live subscribers (on every node when the
 * backend spans nodes), stop after unsubscribe, and let `waitForWake` fall back to its timer.
 */
import assert from 'node:assert/strict';
import { setTimeout as delay } from 'node:timers/promises';
import { describe, test, type TestContext } from 'node:test';
import { InputError } from '../../core/kernel/index.js';
import { waitForWake, type Notifier } from '../../core/ports/index.js';
import type { SuiteOptions } from './store-suite.js';

export interface NotifierHarness {
  readonly notifier: Notifier;
  /** Another notifier on the same backend (its own connections): a second node. */
  readonly openPeer?: () => Promise<Notifier>;
}

export type NotifierHarnessFactory = (t: TestContext) => Promise<NotifierHarness>;

/** Bounds a wait for something that must happen; never a speed assertion. */
const DEADLINE_MS = 5000;

/** Subscribes and returns the payloads seen so far plus a way to wait for the next ones. */
async function listen(notifier: Notifier, channel: string) {
  const payloads: string[] = [];
  const waiters: Array<() => void> = [];
  const unsubscribe = await notifier.subscribe(channel, (payload) => {
    payloads.push(payload);
    for (const wake of waiters.splice(0)) wake();
  });
  const until = async (count: number): Promise<string[]> => {
    const deadline = Date.now() + DEADLINE_MS;
    while (payloads.length < count) {
      const left = deadline - Date.now();
      if (left <= 0) assert.fail(`expected ${count} notification(s) on ${channel} within ${DEADLINE_MS} ms, got ${payloads.length}`);
      await Promise.race([new Promise<void>((resolve) => waiters.push(resolve)), delay(left)]);
    }
    return payloads;
  };
  return { payloads, until, unsubscribe };
}

/** Counts live subscriptions, to see that waitForWake always unsubscribes. */
function counted(notifier: Notifier): { notifier: Notifier; live: () => number } {
  let live = 0;
  return {
    live: () => live,
    notifier: {
      kind: notifier.kind,
      notify: (channel, payload) => notifier.notify(channel, payload),
      close: () => notifier.close(),
      subscribe: async (channel, listener) => {
        const unsubscribe = await notifier.subscribe(channel, listener);
        live += 1;
        let done = false;
        return async () => {
          if (!done) live -= 1;
          done = true;
          await unsubscribe();
        };
      },
    },
  };
}

export function notifierSuite(name: string, factory: NotifierHarnessFactory, options: SuiteOptions = {}): void {
  describe(`${name} notifier`, { skip: options.skip ?? false }, () => {
    test('a live subscriber receives the payload; no payload arrives as an empty string', async (t) => {
      const { notifier } = await factory(t);
      const jobs = await listen(notifier, 'jobs.queued');
      await notifier.notify('jobs.queued', 'job-42');
      await notifier.notify('jobs.queued');
      assert.deepEqual(await jobs.until(2), ['job-42', '']);
    });

    test('every subscriber of a channel is woken, other channels are not, unsubscribe stops delivery', async (t) => {
      const { notifier } = await factory(t);
      const first = await listen(notifier, 'runs:updated');
      const second = await listen(notifier, 'runs:updated');
      const other = await listen(notifier, 'deliveries');
      await notifier.notify('runs:updated', 'a');
      assert.deepEqual(await first.until(1), ['a']);
      assert.deepEqual(await second.until(1), ['a']);

      await first.unsubscribe();
      await first.unsubscribe(); // twice is harmless
      await notifier.notify('runs:updated', 'b');
      await notifier.notify('deliveries', 'sentinel');
      await other.until(1); // sent after 'b', so 'b' has been delivered (or dropped) by now
      assert.deepEqual(await second.until(2), ['a', 'b']);
      assert.deepEqual(first.payloads, ['a'], 'an unsubscribed listener was called');
      assert.deepEqual(other.payloads, ['sentinel'], 'a notification leaked to another channel');
    });

    test('a listener that throws does not stop the others', async (t) => {
      const { notifier } = await factory(t);
      await notifier.subscribe('noisy', () => {
        throw new Error('listener bug');
      });
      const calm = await listen(notifier, 'noisy');
      await notifier.notify('noisy', 'x');
      await notifier.notify('noisy', 'y');
      assert.deepEqual(await calm.until(2), ['x', 'y']);
    });

    test('notifications reach subscribers on another node, both ways', async (t) => {
      const { notifier, openPeer } = await factory(t);
      if (openPeer === undefined) {
        t.skip(`${name} is a single-node notifier`);
        return;
      }
      const peer = await openPeer();
      const here = await listen(notifier, 'jobs.queued');
      const there = await listen(peer, 'jobs.queued');
      await notifier.notify('jobs.queued', 'from-a');
      await peer.notify('jobs.queued', 'from-b');
      assert.deepEqual([...(await here.until(2))].sort(), ['from-a', 'from-b']);
      assert.deepEqual([...(await there.until(2))].sort(), ['from-a', 'from-b']);
    });

    test('waitForWake resolves "notified" on a notification and unsubscribes', async (t) => {
      const { notifier: real, openPeer } = await factory(t);
      const { notifier, live } = counted(real);
      const sender = openPeer === undefined ? real : await openPeer();
      const wait = waitForWake(notifier, 'wake.me', { timeoutMs: 60_000 });
      let woken = false;
      void wait.then(() => (woken = true));
      // The wait subscribes asynchronously; keep hinting until it hears one (hints are idempotent).
      const deadline = Date.now() + DEADLINE_MS;
      while (!woken && Date.now() < deadline) {
        await sender.notify('wake.me', 'go');
        await delay(20);
      }
      assert.equal(await wait, 'notified');
      assert.equal(live(), 0);
    });

    test('waitForWake falls back to its timer when nothing is notified', async (t) => {
      const { notifier: real } = await factory(t);
      const { notifier, live } = counted(real);
      await real.notify('wake.me', 'before the wait: not seen');
      assert.equal(await waitForWake(notifier, 'wake.me', { timeoutMs: 50 }), 'timeout');
      await real.notify('other.channel', 'x');
      assert.equal(await waitForWake(notifier, 'wake.me', { timeoutMs: 50 }), 'timeout');
      assert.equal(live(), 0);
    });

    test('waitForWake stops on abort, also when aborted before it starts', async (t) => {
      const { notifier: real } = await factory(t);
      const { notifier, live } = counted(real);
      const controller = new AbortController();
      const wait = waitForWake(notifier, 'wake.me', { timeoutMs: 60_000, signal: controller.signal });
      setTimeout(() => controller.abort(), 30);
      assert.equal(await wait, 'aborted');
      assert.equal(await waitForWake(notifier, 'wake.me', { timeoutMs: 60_000, signal: AbortSignal.abort() }), 'aborted');
      assert.equal(live(), 0);
    });

    test('channel names outside the shared rule are refused', async (t) => {
      const { notifier } = await factory(t);
      const refused = (error: unknown): boolean => error instanceof InputError;
      for (const channel of ['', 'has space', 'semi;colon', 'quote"d', 'x'.repeat(64)]) {
        await assert.rejects(notifier.notify(channel, 'x'), refused, JSON.stringify(channel));
        await assert.rejects(notifier.subscribe(channel, () => undefined), refused, JSON.stringify(channel));
      }
    });

    test('close is idempotent and the closed notifier refuses work', async (t) => {
      const { notifier } = await factory(t);
      await notifier.close();
      await notifier.close();
      await assert.rejects(notifier.notify('after.close', 'x'));
      await assert.rejects(notifier.subscribe('after.close', () => undefined));
    });
  });
}
