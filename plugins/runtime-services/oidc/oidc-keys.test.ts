import assert from 'node:assert/strict';
import { test } from 'node:test';
import { localSharedKeys } from '../../../core/kernel/index.js';
import type { SharedKeys } from '../../../core/ports/index.js';
import { ManualClock } from '../../../test/support/manual-clock.js';
import { createOidcKeyRing, OIDC_KEYS_NAME } from './oidc-keys.js';

const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * One store two nodes share, where both nodes' reads of the ring are held until both have read:
 * the worst interleaving, both deciding to rotate from the same ring before either writes.
 */
function sharedStoreWithBarrier(): { forNode(): SharedKeys; arm(): void } {
  const entries = new Map<string, string>();
  const store = localSharedKeys({
    kind: 'memory',
    persistent: false,
    get: async (name) => entries.get(name),
    set: async (name, value) => void entries.set(name, value),
    delete: async (name) => entries.delete(name),
  });
  let waiting: (() => void)[] | undefined;
  return {
    arm: () => void (waiting = []),
    forNode: () => ({
      ...store,
      async get(name) {
        const value = await store.get(name);
        if (name === OIDC_KEYS_NAME && waiting !== undefined) {
          const barrier = waiting;
          await new Promise<void>((resolve) => {
            barrier.push(resolve);
            if (barrier.length === 2) {
              waiting = undefined;
              for (const release of barrier) release();
            }
          });
        }
        return value;
      },
    }),
  };
}

const kids = async (ring: ReturnType<typeof createOidcKeyRing>): Promise<string[]> => (await ring.publishedKeys()).map((key) => key.kid ?? '');

test('two nodes rotating at the same moment keep one ring', async () => {
  const shared = sharedStoreWithBarrier();
  const clockA = new ManualClock(Date.UTC(2030, 0, 1));
  const clockB = new ManualClock(Date.UTC(2030, 0, 1));
  const a = createOidcKeyRing({ store: shared.forNode(), clock: clockA, rotationMs: 4 * DAY_MS });
  const b = createOidcKeyRing({ store: shared.forNode(), clock: clockB, rotationMs: 4 * DAY_MS });

  shared.arm();
  const [firstA, firstB] = await Promise.all([kids(a), kids(b)]);
  assert.equal(firstA.length, 1, 'one first key');
  assert.deepEqual(firstB, firstA, 'both nodes made a first key; one was kept by both');

  // Past rotation - lead and the reload interval: both nodes re-read the ring, then both rotate.
  clockA.advance(3 * DAY_MS + 120_000);
  clockB.advance(3 * DAY_MS + 120_000);
  shared.arm();
  const [nextA, nextB] = await Promise.all([kids(a), kids(b)]);
  assert.equal(nextA.length, 2, 'the next key is published ahead');
  assert.deepEqual(nextB, nextA, 'one next key, not one per node');
  clockA.advance(DAY_MS);
  clockB.advance(DAY_MS);
  assert.equal((await a.signingKey()).kid, (await b.signingKey()).kid);
  assert.equal((await a.signingKey()).kid, nextA[1]);
});
