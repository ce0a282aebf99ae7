import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Notifier, NotifyListener } from './notifier.js';
import { waitForWake } from './wake.js';

/** A notifier whose subscribe takes a while, to abort a wait in the middle of subscribing. */
function slowNotifier(subscribeMs: number): { notifier: Notifier; live: () => number } {
  const listeners = new Set<NotifyListener>();
  return {
    live: () => listeners.size,
    notifier: {
      kind: 'slow',
      notify: async (_channel, payload = '') => listeners.forEach((listener) => listener(payload)),
      subscribe: async (_channel, listener) => {
        await new Promise((resolve) => setTimeout(resolve, subscribeMs));
        listeners.add(listener);
        return async () => void listeners.delete(listener);
      },
      close: async () => listeners.clear(),
    },
  };
}

test('an abort while subscribing still ends the wait and unsubscribes', async () => {
  const { notifier, live } = slowNotifier(30);
  const controller = new AbortController();
  const wait = waitForWake(notifier, 'c', { timeoutMs: 60_000, signal: controller.signal });
  controller.abort();
  assert.equal(await wait, 'aborted');
  assert.equal(live(), 0);
});

test('a zero timeout returns at once once subscribed', async () => {
  const { notifier, live } = slowNotifier(0);
  assert.equal(await waitForWake(notifier, 'c', { timeoutMs: 0 }), 'timeout');
  assert.equal(live(), 0);
});

test('a negative or missing timeout is a programming error', async () => {
  const { notifier } = slowNotifier(0);
  await assert.rejects(waitForWake(notifier, 'c', { timeoutMs: -1 }), RangeError);
  await assert.rejects(waitForWake(notifier, 'c', { timeoutMs: Number.NaN }), RangeError);
});
