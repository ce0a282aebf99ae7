import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { formatTimeSpan, parseTimeSpan } from './time-span.js';

// Expected strings are TimeSpan.ToString() (the "c" format) of the same duration.
const formatted: readonly [number, string][] = [
  [0, '00:00:00'],
  [5 * 60_000, '00:05:00'],
  [60 * 60_000, '01:00:00'],
  [1500, '00:00:01.5000000'],
  [0.0001, '00:00:00.0000001'],
  [24 * 3_600_000, '1.00:00:00'],
  [((26 * 60 + 3) * 60 + 4) * 1000 + 5, '1.02:03:04.0050000'],
  [-90_000, '-00:01:30'],
];

describe('TimeSpan', () => {
  for (const [ms, text] of formatted) {
    it(`${ms} ms ↔ ${text}`, () => {
      assert.equal(formatTimeSpan(ms), text);
      assert.equal(parseTimeSpan(text), ms);
    });
  }

  it('reads the other forms TimeSpan.Parse takes', () => {
    assert.equal(parseTimeSpan('5'), 5 * 86_400_000);
    assert.equal(parseTimeSpan('00:05'), 5 * 60_000);
    assert.equal(parseTimeSpan('1:02:03:04'), ((26 * 60 + 3) * 60 + 4) * 1000);
    assert.equal(parseTimeSpan(' 0:5:0 '), 5 * 60_000);
  });

  it('refuses what TimeSpan.Parse refuses', () => {
    for (const bad of ['', '24:00:00', '00:60:00', '00:00:60', '5m', 'P5M', '1.2.3']) {
      assert.throws(() => parseTimeSpan(bad, '$.timeout'), { name: 'WireFormatError', code: 'invalid_value', path: '$.timeout' }, bad);
    }
    assert.throws(() => formatTimeSpan(Number.NaN), RangeError);
  });
});
