import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { looseEquals } from './loose-equal.js';
import type { JsonPrimitive, JsonValue } from './types.js';

describe('looseEquals', () => {
  it("follows the expression language's ==", () => {
    const cases: [JsonValue | undefined, JsonPrimitive, boolean][] = [
      ['abc', 'ABC', true],
      ['abc', 'abd', false],
      [12, '12', true],
      [12, ' 12 ', true],
      [12, '0xc', true],
      [1, true, true],
      [0, false, true],
      ['1', true, true],
      [null, null, true],
      [undefined, null, true],
      [0, null, true],
      ['', null, true],
      ['', 0, true],
      ['abc', 0, false],
      [true, 'true', false],
      [{ a: 1 }, null, false],
      [[1], 1, false],
      [Number.NaN, Number.NaN, false],
    ];
    for (const [left, right, expected] of cases) {
      assert.equal(looseEquals(left, right), expected, `${JSON.stringify(left)} == ${JSON.stringify(right)}`);
    }
  });
});
