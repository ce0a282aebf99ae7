import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { formatNumber, parseNumber } from './number-format.js';
import { evaluateExpression } from './evaluate.js';
import { toExpressionString } from './value.js';

describe('formatNumber (the runner\'s G15 conversion to string)', () => {
  const cases: [number, string][] = [
    [0, '0'],
    [-0, '0'],
    [1, '1'],
    [-2, '-2'],
    [0.5, '0.5'],
    [-0.5, '-0.5'],
    [123456.789, '123456.789'],
    [0.1 + 0.2, '0.3'],
    [0.84551240822557006, '0.84551240822557'],
    [123456789012345, '123456789012345'],
    [1e15, '1E+15'],
    [1234567890123456789, '1.23456789012346E+18'],
    [2 ** 53, '9.00719925474099E+15'],
    [999999999999999.9, '1E+15'],
    [1e21, '1E+21'],
    [-1.5e300, '-1.5E+300'],
    [0.0001, '0.0001'],
    [0.00001, '1E-05'],
    [1.5e-7, '1.5E-07'],
    [5e-324, '4.94065645841247E-324'],
    [NaN, 'NaN'],
    [Infinity, 'Infinity'],
    [-Infinity, '-Infinity'],
  ];
  for (const [value, expected] of cases) {
    test(`${Object.is(value, -0) ? '-0' : String(value)} -> ${expected}`, () => {
      assert.equal(formatNumber(value), expected);
    });
  }

  test('format(), join(), toJSON() and string conversion use it', () => {
    assert.equal(evaluateExpression("format('{0}|{1}|{2}', 1e21, -0, 0.00001)", {}), '1E+21|0|1E-05');
    assert.equal(evaluateExpression("join(fromJSON('[1e21, 2, 0.5]'), ' ')", {}), '1E+21 2 0.5');
    assert.equal(evaluateExpression('toJSON(n)', { n: [1e21, NaN] }), '[\n  1E+21,\n  NaN\n]');
    assert.equal(evaluateExpression("contains(123456789012345678, '1.23456789012346E+17')", {}), true);
    assert.equal(toExpressionString(1e21), '1E+21');
    assert.equal(toExpressionString(null), '');
    assert.equal(toExpressionString([1]), 'Array');
    assert.equal(toExpressionString({}), 'Object');
  });
});

describe('parseNumber (the runner\'s string to number)', () => {
  const cases: [string, number][] = [
    ['', 0],
    ['  ', 0],
    [' 1.2e+2 ', 120],
    ['-1.5', -1.5],
    ['.5', 0.5],
    ['5.', 5],
    ['0x1F', 31],
    ['0xffffffff', -1],
    ['0o17', 15],
    ['Infinity', Infinity],
    ['-Infinity', -Infinity],
  ];
  for (const [text, expected] of cases) {
    test(`'${text}' -> ${expected}`, () => assert.equal(parseNumber(text), expected));
  }
  for (const text of ['0b101', '0X1F', '0O17', '1_000', '0x100000000', 'abc', '-0x10', 'NaN']) {
    test(`'${text}' -> NaN`, () => assert.ok(Number.isNaN(parseNumber(text))));
  }

  test('comparisons between strings and numbers use it', () => {
    assert.equal(evaluateExpression("'0b1' == 1", {}), false);
    assert.equal(evaluateExpression("' 0x10 ' == 16", {}), true);
    assert.equal(evaluateExpression("'' == 0", {}), true);
  });
});
