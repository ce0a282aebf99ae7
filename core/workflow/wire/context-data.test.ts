import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ContextDataType, encodeContextData } from '../../protocol/index.js';
import { contextDataMap, contextDataOf } from './context-data.js';

test('plain values become context data with the runner kinds (numbers stay numbers)', () => {
  assert.deepEqual(contextDataOf({ tag: 'alpha', number: 7, flag: true, none: null, list: ['a', 1] }), {
    type: ContextDataType.Dictionary,
    entries: [
      { key: 'tag', value: { type: ContextDataType.String, value: 'alpha' } },
      { key: 'number', value: { type: ContextDataType.Number, value: 7 } },
      { key: 'flag', value: { type: ContextDataType.Boolean, value: true } },
      { key: 'none', value: null },
      {
        key: 'list',
        value: {
          type: ContextDataType.Array,
          items: [
            { type: ContextDataType.String, value: 'a' },
            { type: ContextDataType.Number, value: 1 },
          ],
        },
      },
    ],
  });
  assert.equal(contextDataOf(undefined), null);
});

test('a context map keeps null contexts (matrix: null) and drops absent ones, in order', () => {
  const contexts = contextDataMap({ github: { repository: 'o/r' }, matrix: null, vars: {}, steps: undefined });
  assert.deepEqual(Object.keys(contexts), ['github', 'matrix', 'vars']);
  assert.equal(contexts['matrix'], null);
  // github.com writes an empty dictionary with an empty `d`.
  assert.deepEqual(encodeContextData(contexts['vars'] ?? null, { style: 'github' }), { t: 2, d: [] });
  assert.deepEqual(encodeContextData(contexts['github'] ?? null, { style: 'github' }), { t: 2, d: [{ k: 'repository', v: 'o/r' }] });
});
