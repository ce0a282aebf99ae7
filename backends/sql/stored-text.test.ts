import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { decodeStoredText, encodeStoredText } from './stored-text.js';

describe('stored text codec', () => {
  it('leaves ordinary text (pairs of surrogates included) as it is', () => {
    for (const text of ['', 'hello', 'naïve €', '😀 emoji pair', 'tab\tnew\nline']) assert.equal(encodeStoredText(text), text);
  });

  it('writes no NUL and no lone surrogate, and reads back what was written', () => {
    const samples = ['a\u0000b', '\u0000', '\ud800', 'x\udc00y', '\ud83d', '\ue000', '\ue0000', '\ue000u', '\ue000\u0000\ud800\ue000', '😀\u0000\udfff😀', 'end\ud800'];
    for (const text of samples) {
      const stored = encodeStoredText(text);
      assert.ok(!stored.includes('\u0000'), JSON.stringify(stored));
      assert.ok(!/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/.test(stored), `${JSON.stringify(stored)} has no lone surrogate`);
      assert.equal(decodeStoredText(stored), text, JSON.stringify(text));
    }
  });

  it('round-trips random strings over the awkward code units', () => {
    const units = [0, 0x41, 0xe000, 0x30, 0x75, 0xd800, 0xdbff, 0xdc00, 0xdfff, 0x66, 0x20ac];
    let seed = 42;
    const next = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31);
    for (let n = 0; n < 2000; n++) {
      const text = String.fromCharCode(...Array.from({ length: next() % 12 }, () => units[next() % units.length] ?? 0));
      assert.equal(decodeStoredText(encodeStoredText(text)), text, JSON.stringify(text));
    }
  });
});
