import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { WireFormatError } from '../wire/index.js';
import { decodeTemplateToken } from './decode-template-token.js';
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

function rejects(json: unknown, code: WireFormatError['code'], path?: string): void {
  assert.throws(
    () => decodeTemplateToken(json),
    (error: unknown) => {
      assert.ok(error instanceof WireFormatError, `expected a WireFormatError, got ${String(error)}`);
      assert.equal(error.code, code);
      if (path !== undefined) assert.equal(error.path, path);
      return true;
    },
  );
}

describe('decodeTemplateToken: compact forms', () => {
  it('reads bare JSON scalars as position-less literals', () => {
    assert.deepEqual(decodeTemplateToken('echo hi'), stringToken('echo hi'));
    assert.deepEqual(decodeTemplateToken(''), stringToken(''));
    assert.deepEqual(decodeTemplateToken(true), booleanToken(true));
    assert.deepEqual(decodeTemplateToken(false), booleanToken(false));
    assert.deepEqual(decodeTemplateToken(3), numberToken(3));
    assert.deepEqual(decodeTemplateToken(1.9), numberToken(1.9));
    assert.deepEqual(decodeTemplateToken(null), nullToken());
  });

  it('reads an object without type as a string from lit', () => {
    assert.deepEqual(decodeTemplateToken({ lit: 'x', file: 1, line: 2, col: 3 }), stringToken('x', { file: 1, line: 2, col: 3 }));
    assert.deepEqual(decodeTemplateToken({ expr: 'ignored' }), stringToken(''));
  });
});

describe('decodeTemplateToken: every type code', () => {
  const at = { file: 2, line: 50, col: 14 };
  const cases: readonly [string, unknown, unknown][] = [
    ['string', { type: 0, file: 2, line: 50, col: 14, lit: 'make' }, stringToken('make', at)],
    ['sequence', { type: 1, seq: ['a', { type: 3, expr: 'b' }] }, sequenceToken([stringToken('a'), basicExpressionToken('b')])],
    ['mapping', { type: 2, map: [{ Key: 'k', Value: 1 }] }, mappingToken([{ key: stringToken('k'), value: numberToken(1) }])],
    ['basic expression', { type: 3, line: 4, expr: 'matrix.dir' }, basicExpressionToken('matrix.dir', { line: 4 })],
    ['insert expression', { type: 4, col: 7, directive: 'insert' }, insertExpressionToken({ col: 7 })],
    ['boolean', { type: 5, file: 2, line: 50, col: 14, bool: true }, booleanToken(true, at)],
    ['number', { type: 6, file: 2, line: 50, col: 14, num: 1.9 }, numberToken(1.9, at)],
    ['null', { type: 7, file: 2, line: 50, col: 14 }, nullToken(at)],
  ];
  for (const [name, json, expected] of cases) {
    it(`reads ${name} tokens`, () => assert.deepEqual(decodeTemplateToken(json), expected));
  }

  it('defaults absent lit, expr, bool, num, seq and map', () => {
    assert.deepEqual(decodeTemplateToken({ type: 0, line: 1 }), stringToken('', { line: 1 }));
    assert.deepEqual(decodeTemplateToken({ type: 0, lit: null }), stringToken(''));
    assert.deepEqual(decodeTemplateToken({ type: 3 }), basicExpressionToken(''));
    assert.deepEqual(decodeTemplateToken({ type: 5, line: 1 }), booleanToken(false, { line: 1 }));
    assert.deepEqual(decodeTemplateToken({ type: 6, line: 1 }), numberToken(0, { line: 1 }));
    assert.deepEqual(decodeTemplateToken({ type: 1 }), sequenceToken([]));
    assert.deepEqual(decodeTemplateToken({ type: 2, map: null }), mappingToken([]));
  });

  it('treats null positions as absent', () => {
    assert.deepEqual(decodeTemplateToken({ type: 7, file: null, line: 3, col: null }), nullToken({ line: 3 }));
  });

  it('always reads the insert directive as insert, like the runner', () => {
    assert.deepEqual(decodeTemplateToken({ type: 4, directive: 'each' }), insertExpressionToken());
    assert.deepEqual(decodeTemplateToken({ type: 4 }), insertExpressionToken());
  });

  it('reads non-finite numbers in the spelling Newtonsoft writes', () => {
    const nan = decodeTemplateToken({ type: 6, line: 1, num: 'NaN' });
    assert.ok(nan.type === 6 && Number.isNaN(nan.value));
    assert.deepEqual(decodeTemplateToken({ type: 6, line: 1, num: '-Infinity' }), numberToken(-Infinity, { line: 1 }));
  });
});

describe('decodeTemplateToken: member names', () => {
  it('matches member names ignoring case, entries as Key/Value or key/value', () => {
    const json = {
      TYPE: 2,
      Line: 9,
      MAP: [
        { Key: { Type: 0, LIT: 'a' }, Value: { type: 3, EXPR: 'x' } },
        { key: 'b', value: { type: 5, Bool: true } },
        { KEY: 'c', VALUE: { type: 6, Num: 2 } },
      ],
    };
    assert.deepEqual(
      decodeTemplateToken(json),
      mappingToken(
        [
          { key: stringToken('a'), value: basicExpressionToken('x') },
          { key: stringToken('b'), value: booleanToken(true) },
          { key: stringToken('c'), value: numberToken(2) },
        ],
        { line: 9 },
      ),
    );
  });

  it('prefers an exact `type` and lets the last spelling of a member win', () => {
    assert.deepEqual(decodeTemplateToken({ Type: 3, type: 0, lit: 'a', LIT: 'b' }), stringToken('b'));
    assert.deepEqual(decodeTemplateToken({ Type: 3, TYPE: 0, expr: 'first' }), basicExpressionToken('first'));
    assert.deepEqual(decodeTemplateToken({ type: 2, map: [{ key: 'a', Key: 'b', value: 1 }] }), mappingToken([{ key: stringToken('b'), value: numberToken(1) }]));
  });

  it('does not fold non-ASCII look-alikes into member names', () => {
    // U+212A KELVIN SIGN lower-cases to "k" in JavaScript, but is not the member `key`.
    rejects({ type: 2, map: [{ '\u212Aey': 'a', value: 1 }] }, 'invalid_value', '$.map[0]');
  });
});

describe('decodeTemplateToken: nested insert directives', () => {
  it('reads ${{ insert }} keys at several levels', () => {
    const json = {
      type: 2,
      map: [
        { Key: 'FOO', Value: 'bar' },
        { Key: { type: 4, line: 3, col: 5, directive: 'insert' }, Value: { type: 3, expr: 'fromJSON(inputs.env)' } },
        {
          Key: 'nested',
          Value: {
            type: 2,
            map: [{ Key: { type: 4, directive: 'insert' }, Value: { type: 2, map: [{ Key: { type: 4, directive: 'insert' }, Value: { type: 3, expr: 'matrix.extra' } }] } }],
          },
        },
      ],
    };
    assert.deepEqual(
      decodeTemplateToken(json),
      mappingToken([
        { key: stringToken('FOO'), value: stringToken('bar') },
        { key: insertExpressionToken({ line: 3, col: 5 }), value: basicExpressionToken('fromJSON(inputs.env)') },
        {
          key: stringToken('nested'),
          value: mappingToken([
            { key: insertExpressionToken(), value: mappingToken([{ key: insertExpressionToken(), value: basicExpressionToken('matrix.extra') }]) },
          ]),
        },
      ]),
    );
  });
});

describe('decodeTemplateToken: refused input', () => {
  it('refuses unknown and non-integer type codes (the runner would drop the value)', () => {
    rejects({ type: 8 }, 'unknown_type', '$.type');
    rejects({ type: -1 }, 'unknown_type');
    rejects({ type: '2' }, 'unknown_type', '$.type');
    rejects({ type: null }, 'unknown_type');
    rejects({ type: 1.5 }, 'unknown_type');
  });

  it('refuses arrays and undefined where a token belongs', () => {
    rejects(['a'], 'invalid_value', '$');
    rejects(undefined, 'invalid_value', '$');
    rejects({ type: 1, seq: [[1]] }, 'invalid_value', '$.seq[0]');
  });

  it('refuses members of the wrong JSON type', () => {
    rejects({ type: 0, lit: 3 }, 'invalid_value', '$.lit');
    rejects({ type: 5, bool: 'true' }, 'invalid_value', '$.bool');
    rejects({ type: 5, bool: null }, 'invalid_value', '$.bool');
    rejects({ type: 6, num: '3' }, 'invalid_value', '$.num');
    rejects({ type: 7, line: 1.5 }, 'invalid_value', '$.line');
    rejects({ type: 7, file: 2 ** 31 }, 'invalid_value', '$.file');
    rejects({ type: 1, seq: {} }, 'invalid_value', '$.seq');
  });

  it('refuses malformed mapping entries', () => {
    rejects({ type: 2, map: [null] }, 'invalid_value', '$.map[0]');
    rejects({ type: 2, map: [{ Value: 'v' }] }, 'invalid_value', '$.map[0]');
    rejects({ type: 2, map: [{ Key: 'k' }] }, 'invalid_value', '$.map[0]');
    rejects({ type: 2, map: [{ Key: { type: 2 }, Value: 'v' }] }, 'invalid_value', '$.map[0].Key');
    rejects({ type: 2, map: [{ Key: { type: 1 }, Value: 'v' }] }, 'invalid_value', '$.map[0].Key');
  });

  it('names the offending path, under a caller-given prefix', () => {
    const json = { type: 2, map: [{ Key: 'a', Value: { type: 1, seq: ['x', { type: 9 }] } }] };
    assert.throws(() => decodeTemplateToken(json, { path: 'steps[3].inputs' }), {
      name: 'WireFormatError',
      code: 'unknown_type',
      path: 'steps[3].inputs.map[0].Value.seq[1].type',
    });
  });

  it('refuses nesting deep enough to exhaust the stack, cleanly', () => {
    let json: unknown = 'leaf';
    for (let i = 0; i < 100_000; i++) json = { type: 1, seq: [json] };
    rejects(json, 'too_deep');
  });
});
