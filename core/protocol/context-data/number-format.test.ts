import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { formatRunnerNumber } from './number-format.js';

// Expected strings are what .NET prints for double.ToString("G15", CultureInfo.InvariantCulture).
const cases: readonly [number, string][] = [
  [0, '0'],
  [-0, '-0'],
  [7, '7'],
  [-7, '-7'],
  [1.9, '1.9'],
  [0.1 + 0.2, '0.3'],
  [1 / 3, '0.333333333333333'],
  [2 / 3, '0.666666666666667'],
  [107764987530, '107764987530'],
  [123456789012345, '123456789012345'],
  [999999999999999, '999999999999999'],
  [1e15, '1E+15'],
  [1234567890123456, '1.23456789012346E+15'],
  [9007199254740993, '9.00719925474099E+15'],
  [1e21, '1E+21'],
  [1.5e300, '1.5E+300'],
  [0.0001, '0.0001'],
  [0.000123, '0.000123'],
  [0.00001, '1E-05'],
  [-1.5e-7, '-1.5E-07'],
  [5e-324, '4.94065645841247E-324'],
  [Number.MAX_VALUE, '1.79769313486232E+308'],
  [Number.NaN, 'NaN'],
  [Infinity, 'Infinity'],
  [-Infinity, '-Infinity'],
];

describe('formatRunnerNumber (G15)', () => {
  for (const [value, expected] of cases) {
    it(`${String(value)} → ${expected}`, () => assert.equal(formatRunnerNumber(value), expected));
  }
});
