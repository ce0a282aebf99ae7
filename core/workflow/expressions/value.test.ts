import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { evaluateExpression } from './evaluate.js';
import { LruCache } from './lru-cache.js';
import { isTruthy, kindOf } from './value.js';

describe('values', () => {
  test('truthiness as the runner decides an if:', () => {
    for (const value of [null, false, 0, -0, NaN, '']) assert.equal(isTruthy(value), false, String(value));
    for (const value of [true, 1, -1, 'false', '0', [], {}]) assert.equal(isTruthy(value), true, JSON.stringify(value));
  });

  test('kind names match the corpus', () => {
    assert.deepEqual([null, true, 1, 's', [], {}].map(kindOf), ['Null', 'Boolean', 'Number', 'String', 'Array', 'Object']);
  });

  test('contexts are converted member by member as they are read', () => {
    const event = {
      get payload(): string {
        throw new Error('the event payload was converted');
      },
    };
    const contexts = { github: { ref: 'refs/heads/main', event } };
    assert.equal(evaluateExpression("endsWith(github.ref, '/main')", contexts), true);
    assert.throws(() => evaluateExpression('toJSON(github)', contexts), /event payload was converted/);
  });
});

describe('LruCache', () => {
  test('refuses a capacity that is not a positive integer', () => {
    assert.throws(() => new LruCache(0), RangeError);
    assert.throws(() => new LruCache(1.5), RangeError);
  });

  test('clear() empties it and resets the counters', () => {
    const cache = new LruCache<string, number>(2);
    cache.set('a', 1);
    cache.get('a');
    cache.get('b');
    cache.clear();
    assert.deepEqual([cache.size, cache.hits, cache.misses], [0, 0, 0]);
  });
});
