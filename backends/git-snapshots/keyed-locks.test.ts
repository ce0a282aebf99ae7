import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { KeyedLocks } from './keyed-locks.js';

const tick = () => new Promise<void>((resolve) => setImmediate(resolve));

describe('keyed locks', () => {
  it('lets shared holders overlap and makes an exclusive one wait for them, in arrival order', async () => {
    const locks = new KeyedLocks();
    const events: string[] = [];
    let releaseShared!: () => void;
    const sharedGate = new Promise<void>((resolve) => (releaseShared = resolve));
    const first = locks.shared('k', async () => {
      events.push('shared 1 in');
      await sharedGate;
      events.push('shared 1 out');
    });
    const second = locks.shared('k', async () => {
      events.push('shared 2 in');
      await sharedGate;
      events.push('shared 2 out');
    });
    const exclusive = locks.exclusive('k', async () => {
      events.push('exclusive');
    });
    const late = locks.shared('k', async () => {
      events.push('shared 3 (after the waiting exclusive)');
    });
    const other = locks.exclusive('other key', async () => {
      events.push('other key');
    });
    await tick();
    assert.deepEqual(events, ['shared 1 in', 'shared 2 in', 'other key']);
    releaseShared();
    await Promise.all([first, second, exclusive, late, other]);
    assert.deepEqual(events.slice(3), ['shared 1 out', 'shared 2 out', 'exclusive', 'shared 3 (after the waiting exclusive)']);
  });

  it('releases the lock when the work fails', async () => {
    const locks = new KeyedLocks();
    await assert.rejects(locks.exclusive('k', () => Promise.reject(new Error('boom'))), /boom/);
    assert.equal(await locks.exclusive('k', () => Promise.resolve('again')), 'again');
  });
});
