import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { encodeTemplateToken } from './encode-template-token.js';
import {
  basicExpressionToken,
  booleanToken,
  insertExpressionToken,
  mappingToken,
  nullToken,
  numberToken,
  sequenceToken,
  stringToken,
} from './template-token.js';

const at = { file: 1, line: 12, col: 14 };

describe('encodeTemplateToken: runner style (the default)', () => {
  it('writes position-less literals as bare JSON scalars', () => {
    assert.equal(encodeTemplateToken(stringToken('echo hi')), 'echo hi');
    assert.equal(encodeTemplateToken(booleanToken(false)), false);
    assert.equal(encodeTemplateToken(numberToken(3)), 3);
    assert.equal(encodeTemplateToken(nullToken()), null);
  });

  it('writes positioned literals as objects, members in the runner order', () => {
    assert.equal(JSON.stringify(encodeTemplateToken(stringToken('make', at))), '{"type":0,"file":1,"line":12,"col":14,"lit":"make"}');
    assert.equal(JSON.stringify(encodeTemplateToken(booleanToken(true, at))), '{"type":5,"file":1,"line":12,"col":14,"bool":true}');
    assert.equal(JSON.stringify(encodeTemplateToken(numberToken(1.9, at))), '{"type":6,"file":1,"line":12,"col":14,"num":1.9}');
    assert.equal(JSON.stringify(encodeTemplateToken(nullToken(at))), '{"type":7,"file":1,"line":12,"col":14}');
  });

  it('always writes lit, bool and num in object form, even when empty, false or 0', () => {
    assert.deepEqual(encodeTemplateToken(stringToken('', { line: 2 })), { type: 0, line: 2, lit: '' });
    assert.deepEqual(encodeTemplateToken(booleanToken(false, { line: 2 })), { type: 5, line: 2, bool: false });
    assert.deepEqual(encodeTemplateToken(numberToken(0, { line: 2 })), { type: 6, line: 2, num: 0 });
  });

  it('writes only the position parts that are set', () => {
    assert.deepEqual(encodeTemplateToken(stringToken('x', { col: 3 })), { type: 0, col: 3, lit: 'x' });
    assert.deepEqual(encodeTemplateToken(numberToken(5, { file: 2 })), { type: 6, file: 2, num: 5 });
  });

  it('writes expressions always as objects, expr only when non-empty', () => {
    assert.deepEqual(encodeTemplateToken(basicExpressionToken('matrix.dir')), { type: 3, expr: 'matrix.dir' });
    assert.deepEqual(encodeTemplateToken(basicExpressionToken('')), { type: 3 });
    assert.deepEqual(encodeTemplateToken(insertExpressionToken()), { type: 4, directive: 'insert' });
  });

  it('writes sequences and mappings, leaving out empty seq and map', () => {
    assert.deepEqual(encodeTemplateToken(sequenceToken([])), { type: 1 });
    assert.deepEqual(encodeTemplateToken(mappingToken([], at)), { type: 2, file: 1, line: 12, col: 14 });
    assert.deepEqual(encodeTemplateToken(sequenceToken([stringToken('a'), nullToken()])), { type: 1, seq: ['a', null] });
    assert.deepEqual(encodeTemplateToken(mappingToken([{ key: stringToken('script'), value: stringToken('make', at) }])), {
      type: 2,
      map: [{ key: 'script', value: { type: 0, file: 1, line: 12, col: 14, lit: 'make' } }],
    });
  });

  it('writes non-finite numbers as Newtonsoft does', () => {
    assert.equal(encodeTemplateToken(numberToken(Number.NaN)), 'NaN');
    assert.equal(encodeTemplateToken(numberToken(Infinity)), 'Infinity');
    assert.deepEqual(encodeTemplateToken(numberToken(-Infinity, { line: 1 })), { type: 6, line: 1, num: '-Infinity' });
  });
});

describe('encodeTemplateToken: github style', () => {
  const github = { style: 'github' } as const;

  it('writes position-less strings as objects and entries as Key/Value', () => {
    const token = mappingToken([
      { key: stringToken('script'), value: stringToken('echo hi') },
      { key: stringToken('workingDirectory'), value: basicExpressionToken('matrix.dir') },
    ]);
    assert.deepEqual(encodeTemplateToken(token, github), {
      type: 2,
      map: [
        { Key: { type: 0, lit: 'script' }, Value: { type: 0, lit: 'echo hi' } },
        { Key: { type: 0, lit: 'workingDirectory' }, Value: { type: 3, expr: 'matrix.dir' } },
      ],
    });
  });

  it('keeps the runner spelling where the captures show nothing else', () => {
    assert.equal(encodeTemplateToken(booleanToken(true), github), true);
    assert.equal(encodeTemplateToken(numberToken(2), github), 2);
    assert.equal(encodeTemplateToken(nullToken(), github), null);
    assert.deepEqual(encodeTemplateToken(sequenceToken([stringToken('a')]), github), { type: 1, seq: [{ type: 0, lit: 'a' }] });
    assert.deepEqual(encodeTemplateToken(mappingToken([]), github), { type: 2 });
  });
});
