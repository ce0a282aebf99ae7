import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { inOrder } from './in-order.js';

describe('inOrder', () => {
  it('yields in the items order whatever order the work finishes in, with at most `window` running', async () => {
    let running = 0;
    let most = 0;
    const work = async (n: number) => {
      running += 1;
      most = Math.max(most, running);
      await sleep((7 - n) * 3); // later items finish first
      running -= 1;
      return n * 10;
    };
    const seen: number[] = [];
    for await (const value of inOrder([1, 2, 3, 4, 5, 6], 3, work)) seen.push(value);
    assert.deepEqual(seen, [10, 20, 30, 40, 50, 60]);
    assert.equal(most, 3);
  });

  it('throws the first failure in order, and starts nothing more once stopped', async () => {
    const started: number[] = [];
    const work = async (n: number) => {
      started.push(n);
      if (n === 2) throw new Error('two failed');
      if (n === 3) throw new Error('three failed too, unobserved');
      return n;
    };
    const seen: number[] = [];
    await assert.rejects(async () => {
      for await (const value of inOrder([1, 2, 3, 4, 5, 6, 7], 2, work)) seen.push(value);
    }, /two failed/);
    assert.deepEqual(seen, [1]);
    assert.deepEqual(started, [1, 2, 3]);
  });
});
