import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { WireFormatError } from '../wire/index.js';
import { contextArray, contextBoolean, contextNumber, contextString } from './context-data.js';
import { decodeContextData } from './decode-context-data.js';
import { contextCaseSensitiveDictionary, contextDictionary } from './dictionary.js';

function rejects(json: unknown, code: WireFormatError['code'], path?: string): void {
  assert.throws(
    () => decodeContextData(json),
    (error: unknown) => {
      assert.ok(error instanceof WireFormatError, `expected a WireFormatError, got ${String(error)}`);
      assert.equal(error.code, code);
      if (path !== undefined) assert.equal(error.path, path);
      return true;
    },
  );
}

describe('decodeContextData', () => {
  it('reads the compact forms', () => {
    assert.deepEqual(decodeContextData('abc'), contextString('abc'));
    assert.deepEqual(decodeContextData(true), contextBoolean(true));
    assert.deepEqual(decodeContextData(7), contextNumber(7));
    assert.deepEqual(decodeContextData(107764987530), contextNumber(107764987530));
    assert.equal(decodeContextData(null), null);
  });

  it('reads each type code in object form', () => {
    assert.deepEqual(decodeContextData({ t: 0, s: 'abc' }), contextString('abc'));
    assert.deepEqual(decodeContextData({ t: 1, a: ['x', null, 2] }), contextArray([contextString('x'), null, contextNumber(2)]));
    assert.deepEqual(
      decodeContextData({ t: 2, d: [{ k: 'ref', v: 'refs/heads/main' }, { k: 'event', v: { t: 2 } }] }),
      contextDictionary([['ref', contextString('refs/heads/main')], ['event', contextDictionary()]]),
    );
    assert.deepEqual(decodeContextData({ t: 3, b: true }), contextBoolean(true));
    assert.deepEqual(decodeContextData({ t: 4, n: 1.9 }), contextNumber(1.9));
    assert.deepEqual(
      decodeContextData({ t: 5, d: [{ k: 'Path', v: 'a' }, { k: 'PATH', v: 'b' }] }),
      contextCaseSensitiveDictionary([['Path', contextString('a')], ['PATH', contextString('b')]]),
    );
  });

  it('reads the reader-only defaults', () => {
    assert.deepEqual(decodeContextData({ s: 'no t' }), contextString('no t'));
    assert.deepEqual(decodeContextData({}), contextString(''));
    assert.deepEqual(decodeContextData({ t: 0 }), contextString(''));
    assert.deepEqual(decodeContextData({ t: 1 }), contextArray([]));
    assert.deepEqual(decodeContextData({ t: 2, d: null }), contextDictionary());
    assert.deepEqual(decodeContextData({ t: 3 }), contextBoolean(false));
    assert.deepEqual(decodeContextData({ t: 4 }), contextNumber(0));
    assert.deepEqual(decodeContextData({ t: 2, d: [{ k: 'x' }] }), contextDictionary([['x', null]]));
  });

  it('matches member names ignoring case', () => {
    assert.deepEqual(decodeContextData({ T: 2, D: [{ K: 'a', V: { T: 4, N: 3 } }] }), contextDictionary([['a', contextNumber(3)]]));
  });

  it('keeps keys that differ only in case, as the runner does on read', () => {
    const dict = decodeContextData({ t: 2, d: [{ k: 'a', v: 1 }, { k: 'A', v: 2 }] });
    assert.ok(dict !== null && dict.type === 2);
    assert.deepEqual(dict.entries.map((e) => e.key), ['a', 'A']);
  });

  it('refuses what the runner would throw on or drop', () => {
    rejects({ t: 6 }, 'unknown_type', '$.t');
    rejects({ t: '2' }, 'unknown_type', '$.t');
    rejects([1], 'invalid_value', '$');
    rejects({ t: 1, a: [[]] }, 'invalid_value', '$.a[0]');
    rejects({ t: 2, d: [{ v: 1 }] }, 'invalid_value', '$.d[0].k');
    rejects({ t: 2, d: [{ k: 3, v: 1 }] }, 'invalid_value', '$.d[0].k');
    rejects({ t: 2, d: ['x'] }, 'invalid_value', '$.d[0]');
    rejects({ t: 3, b: 'true' }, 'invalid_value', '$.b');
    rejects({ t: 4, n: '7' }, 'invalid_value', '$.n');
    rejects({ t: 2, d: [{ k: 'a', v: { t: 1, a: [{ t: 9 }] } }] }, 'unknown_type', '$.d[0].v.a[0].t');
  });

  it('refuses nesting deep enough to exhaust the stack, cleanly', () => {
    let json: unknown = 'leaf';
    for (let i = 0; i < 100_000; i++) json = { t: 1, a: [json] };
    rejects(json, 'too_deep');
  });
});
