import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { contextNumber, contextString } from './context-data.js';
import { decodeContextData } from './decode-context-data.js';
import {
  contextCaseSensitiveDictionary,
  contextDictionary,
  foldContextKey,
  getContextValue,
  hasContextKey,
  setContextValue,
} from './dictionary.js';

describe('context dictionaries', () => {
  const dict = contextDictionary([['Repository', contextString('acme/widgets')], ['event', null]]);

  it('looks keys up ignoring case in a dictionary', () => {
    assert.deepEqual(getContextValue(dict, 'repository'), contextString('acme/widgets'));
    assert.deepEqual(getContextValue(dict, 'REPOSITORY'), contextString('acme/widgets'));
    assert.equal(getContextValue(dict, 'EVENT'), null);
    assert.equal(getContextValue(dict, 'missing'), undefined);
    assert.equal(hasContextKey(dict, 'Event'), true);
    assert.equal(hasContextKey(dict, 'missing'), false);
  });

  it('looks keys up exactly in a case-sensitive dictionary', () => {
    const env = contextCaseSensitiveDictionary([['Path', contextString('a')], ['PATH', contextString('b')]]);
    assert.deepEqual(getContextValue(env, 'PATH'), contextString('b'));
    assert.deepEqual(getContextValue(env, 'Path'), contextString('a'));
    assert.equal(getContextValue(env, 'path'), undefined);
  });

  it('sets a value like the runner indexer: existing key keeps position and spelling', () => {
    const updated = setContextValue(dict, 'REPOSITORY', contextString('acme/gadgets'));
    assert.deepEqual(updated.entries, [{ key: 'Repository', value: contextString('acme/gadgets') }, { key: 'event', value: null }]);
    const added = setContextValue(updated, 'run_id', contextNumber(1));
    assert.deepEqual(added.entries.map((e) => e.key), ['Repository', 'event', 'run_id']);
    assert.deepEqual(dict.entries[0], { key: 'Repository', value: contextString('acme/widgets') }, 'the original is untouched');
  });

  it('refuses to build a dictionary whose keys differ only in case', () => {
    assert.throws(() => contextDictionary([['a', null], ['A', null]]), { code: 'duplicate_key' });
    assert.throws(() => contextCaseSensitiveDictionary([['a', null], ['a', null]]), { code: 'duplicate_key' });
    assert.doesNotThrow(() => contextCaseSensitiveDictionary([['a', null], ['A', null]]));
  });

  it('fails lookups in a decoded dictionary with colliding keys, as the runner does', () => {
    const decoded = decodeContextData({ t: 2, d: [{ k: 'x', v: 1 }, { k: 'X', v: 2 }] });
    assert.ok(decoded !== null && decoded.type === 2);
    assert.throws(() => getContextValue(decoded, 'y'), { name: 'WireFormatError', code: 'duplicate_key' });
    assert.throws(() => setContextValue(decoded, 'y', null), { code: 'duplicate_key' });
  });

  it('folds keys per code point without changing their length', () => {
    assert.equal(foldContextKey('github.Event_Name'), 'GITHUB.EVENT_NAME');
    assert.equal(foldContextKey('straße'), 'STRAßE');
    assert.equal(foldContextKey('ümlaut'), foldContextKey('ÜMLAUT'));
  });
});
