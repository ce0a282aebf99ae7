import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { JsonValue } from '../wire/index.js';
import { contextArray, contextBoolean, contextNumber, contextString } from './context-data.js';
import { contextCaseSensitiveDictionary, contextDictionary, getContextValue } from './dictionary.js';
import { fromContextData, toContextData } from './plain-conversion.js';

describe('toContextData', () => {
  it('converts plain JSON values', () => {
    assert.deepEqual(
      toContextData({ ref: 'refs/heads/main', run: 7, ok: true, none: null, list: [1, 'a', [], {}] }),
      contextDictionary([
        ['ref', contextString('refs/heads/main')],
        ['run', contextNumber(7)],
        ['ok', contextBoolean(true)],
        ['none', null],
        ['list', contextArray([contextNumber(1), contextString('a'), contextArray([]), contextDictionary()])],
      ]),
    );
    assert.equal(toContextData(null), null);
  });

  it('collapses keys equal but for case: first spelling, last value', () => {
    const data = toContextData({ Name: 'a', other: 1, NAME: 'b' });
    assert.deepEqual(data, contextDictionary([['Name', contextString('b')], ['other', contextNumber(1)]]));
  });

  it('skips undefined members and nulls undefined items, as JSON.stringify does', () => {
    const value = { a: undefined, b: [undefined, 1] } as unknown as JsonValue;
    assert.deepEqual(toContextData(value), contextDictionary([['b', contextArray([null, contextNumber(1)])]]));
  });

  it('keeps values nested 100 levels deep as their JSON text', () => {
    // The root is level 1; levels 1 to 99 are converted, level 100 is kept as text.
    let value: JsonValue = { leaf: [1, 2.5] };
    for (let i = 0; i < 99; i++) value = [value];
    let data = toContextData(value);
    for (let i = 0; i < 99; i++) {
      assert.ok(data !== null && data.type === 1, `level ${i + 1} is still an array`);
      data = data.items[0] ?? null;
    }
    assert.deepEqual(data, contextString('{\n  "leaf": [\n    1,\n    2.5\n  ]\n}'));
  });

  it('spells scalars at the depth limit as .NET does', () => {
    const nested = (leaf: JsonValue): JsonValue => {
      let value = leaf;
      for (let i = 0; i < 99; i++) value = [value];
      return value;
    };
    const leafOf = (value: JsonValue): unknown => {
      let data = toContextData(value);
      while (data !== null && data.type === 1) data = data.items[0] ?? null;
      return data;
    };
    assert.deepEqual(leafOf(nested(true)), contextString('True'));
    assert.deepEqual(leafOf(nested(null)), contextString(''));
    assert.deepEqual(leafOf(nested(1e20)), contextString('1E+20'));
    assert.deepEqual(leafOf(nested(123456789)), contextString('123456789'));
    assert.deepEqual(leafOf(nested(0.00001)), contextString('1E-05'));
  });
});

describe('fromContextData', () => {
  it('converts both dictionary kinds to objects and keeps numbers numbers', () => {
    const data = contextDictionary([
      ['n', contextNumber(7)],
      ['f', contextNumber(1.9)],
      ['env', contextCaseSensitiveDictionary([['Path', contextString('a')], ['PATH', contextString('b')]])],
      ['list', contextArray([null, contextBoolean(false)])],
    ]);
    const plain = fromContextData(data);
    assert.deepEqual(plain, { n: 7, f: 1.9, env: { Path: 'a', PATH: 'b' }, list: [null, false] });
    assert.equal(JSON.stringify(plain), '{"n":7,"f":1.9,"env":{"Path":"a","PATH":"b"},"list":[null,false]}');
  });

  it('makes __proto__ an ordinary member', () => {
    const plain = fromContextData(contextDictionary([['__proto__', contextString('x')]]));
    assert.equal(Object.getPrototypeOf(plain), Object.prototype);
    assert.equal(JSON.stringify(plain), '{"__proto__":"x"}');
  });

  it('refuses a dictionary holding one key twice', () => {
    const dict = { type: 5, entries: [{ key: 'a', value: null }, { key: 'a', value: null }] } as const;
    assert.throws(() => fromContextData(dict), { code: 'duplicate_key', path: '$["a"]' });
  });

  it('round-trips plain JSON', () => {
    const event = { action: 'opened', number: 12, pull_request: { draft: false, labels: [{ name: 'bug' }], body: null } };
    assert.deepEqual(fromContextData(toContextData(event)), event);
    const data = toContextData(event);
    assert.ok(data !== null && data.type === 2);
    assert.deepEqual(getContextValue(data, 'NUMBER'), contextNumber(12));
  });
});
