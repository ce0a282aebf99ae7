import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { WireStyle } from '../wire/index.js';
import { decodeTemplateToken } from './decode-template-token.js';
import { encodeTemplateToken } from './encode-template-token.js';
import type { TemplateToken } from './template-token.js';
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

const at = (line: number, col: number) => ({ file: 1, line, col });

// A composed step/job fragment exercising every token type, with and without positions,
// expression keys and insert directives nested in mappings and sequences.
const everything: TemplateToken = mappingToken(
  [
    { key: stringToken('script', at(10, 7)), value: stringToken('echo "${{ matrix.os }}"\nmake', at(10, 15)) },
    { key: stringToken('shell'), value: stringToken('') },
    { key: stringToken('workingDirectory'), value: basicExpressionToken("format('{0}/src', runner.temp)", at(11, 26)) },
    { key: basicExpressionToken('matrix.key'), value: booleanToken(false, at(12, 3)) },
    { key: numberToken(7), value: numberToken(0, at(13, 3)) },
    { key: booleanToken(true), value: numberToken(1.9) },
    { key: nullToken(), value: nullToken(at(14, 3)) },
    { key: insertExpressionToken(at(15, 3)), value: basicExpressionToken('fromJSON(inputs.extra)') },
    {
      key: stringToken('services'),
      value: sequenceToken(
        [
          stringToken('redis'),
          mappingToken([
            { key: insertExpressionToken(), value: mappingToken([{ key: insertExpressionToken({ line: 20 }), value: basicExpressionToken('matrix.env') }]) },
            { key: stringToken('ports'), value: sequenceToken([numberToken(6379), stringToken('5432:5432')]) },
          ]),
          sequenceToken([]),
          mappingToken([], { col: 9 }),
          booleanToken(true),
          numberToken(-0.5, { file: 3 }),
        ],
        at(16, 3),
      ),
    },
  ],
  { file: 1, line: 9 },
);

const tokens: readonly [string, TemplateToken][] = [
  ['everything', everything],
  ['a bare string', stringToken('x')],
  ['an empty string with position', stringToken('', { line: 1 })],
  ['false and zero with position', sequenceToken([booleanToken(false, { col: 1 }), numberToken(0, { col: 2 })])],
  ['an empty expression', basicExpressionToken('')],
  ['a large number', numberToken(107764987530)],
];

describe('TemplateToken round trips', () => {
  for (const style of ['runner', 'github'] as const satisfies readonly WireStyle[]) {
    for (const [name, token] of tokens) {
      it(`${style} style: ${name} survives encode → JSON text → decode`, () => {
        const text = JSON.stringify(encodeTemplateToken(token, { style }));
        assert.deepEqual(decodeTemplateToken(JSON.parse(text)), token);
      });
    }
  }

  it('re-encodes wire JSON to the same JSON in the style it was written in', () => {
    const runnerWire = { type: 2, line: 3, map: [{ key: 'a', value: { type: 1, seq: [true, 2, null, 'x', { type: 4, directive: 'insert' }] } }] };
    assert.deepEqual(encodeTemplateToken(decodeTemplateToken(runnerWire)), runnerWire);
    const githubWire = { type: 2, map: [{ Key: { type: 0, lit: 'a' }, Value: { type: 3, file: 2, line: 5, col: 9, expr: 'x' } }] };
    assert.deepEqual(encodeTemplateToken(decodeTemplateToken(githubWire), { style: 'github' }), githubWire);
  });

  it('reads both styles to the same token', () => {
    const runner = encodeTemplateToken(everything, { style: 'runner' });
    const github = encodeTemplateToken(everything, { style: 'github' });
    assert.notDeepEqual(runner, github);
    assert.deepEqual(decodeTemplateToken(runner), decodeTemplateToken(github));
  });
});
