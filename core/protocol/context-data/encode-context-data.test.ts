import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { PipelineContextData } from './context-data.js';
import { contextArray, contextBoolean, contextNumber, contextString } from './context-data.js';
import { decodeContextData } from './decode-context-data.js';
import { contextCaseSensitiveDictionary, contextDictionary } from './dictionary.js';
import { encodeContextData } from './encode-context-data.js';

const github: PipelineContextData = contextDictionary([
  ['repository', contextString('acme/widgets')],
  ['run_number', contextNumber(7)],
  ['ref_protected', contextBoolean(false)],
  ['head_ref', contextString('')],
  ['event', contextDictionary([['commits', contextArray([])], ['forced', contextBoolean(true)]])],
  ['labels', contextArray([contextString('self-hosted'), null, contextNumber(1.5)])],
  ['vars', contextDictionary()],
  ['env', contextCaseSensitiveDictionary([['Path', contextString('/a')], ['PATH', contextString('/b')]])],
  ['none', null],
]);

describe('encodeContextData', () => {
  it('writes the runner form by default', () => {
    assert.deepEqual(encodeContextData(github), {
      t: 2,
      d: [
        { k: 'repository', v: 'acme/widgets' },
        { k: 'run_number', v: 7 },
        { k: 'ref_protected', v: false },
        { k: 'head_ref', v: '' },
        { k: 'event', v: { t: 2, d: [{ k: 'commits', v: { t: 1 } }, { k: 'forced', v: true }] } },
        { k: 'labels', v: { t: 1, a: ['self-hosted', null, 1.5] } },
        { k: 'vars', v: { t: 2 } },
        { k: 'env', v: { t: 5, d: [{ k: 'Path', v: '/a' }, { k: 'PATH', v: '/b' }] } },
        { k: 'none', v: null },
      ],
    });
  });

  it('writes empty arrays and dictionaries as [] in the github style', () => {
    assert.deepEqual(encodeContextData(contextArray([]), { style: 'github' }), { t: 1, a: [] });
    assert.deepEqual(encodeContextData(contextDictionary(), { style: 'github' }), { t: 2, d: [] });
    assert.deepEqual(encodeContextData(contextCaseSensitiveDictionary(), { style: 'github' }), { t: 5, d: [] });
  });

  it('puts t first, as the runner does', () => {
    assert.equal(JSON.stringify(encodeContextData(contextDictionary([['a', contextArray([])]]))), '{"t":2,"d":[{"k":"a","v":{"t":1}}]}');
  });

  it('writes non-finite numbers as Newtonsoft does', () => {
    assert.equal(encodeContextData(contextNumber(Number.NaN)), 'NaN');
    assert.equal(encodeContextData(contextNumber(-Infinity)), '-Infinity');
  });

  for (const style of ['runner', 'github'] as const) {
    it(`round-trips through JSON text in the ${style} style`, () => {
      const text = JSON.stringify(encodeContextData(github, { style }));
      assert.deepEqual(decodeContextData(JSON.parse(text)), github);
    });
  }

  it('re-encodes the reader-only forms in the written form', () => {
    assert.equal(encodeContextData(decodeContextData({ t: 3, b: true })), true);
    assert.equal(encodeContextData(decodeContextData({ t: 4, n: 7 })), 7);
    assert.equal(encodeContextData(decodeContextData({ s: 'x' })), 'x');
  });
});
