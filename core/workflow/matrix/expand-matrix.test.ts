import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { MATRIX_JOB_LIMIT, expandMatrix } from './expand-matrix.js';
import type { JsonValue } from './types.js';

function values(matrix: JsonValue): JsonValue[] {
  const result = expandMatrix(matrix);
  assert.ok(result.ok, result.ok ? '' : result.errors.join('; '));
  return result.combinations.map((c) => c.values);
}

function errors(matrix: JsonValue, jobId?: string): readonly string[] {
  const result = expandMatrix(matrix, jobId === undefined ? {} : { jobId });
  assert.equal(result.ok, false);
  return result.ok ? [] : result.errors;
}

describe('expandMatrix: cross product', () => {
  it('varies the first vector slowest and keeps declaration order', () => {
    assert.deepEqual(values({ a: [1, 2], b: ['x', 'y'], c: [true] }), [
      { a: 1, b: 'x', c: true },
      { a: 1, b: 'y', c: true },
      { a: 2, b: 'x', c: true },
      { a: 2, b: 'y', c: true },
    ]);
  });
});

describe('expandMatrix: exclude', () => {
  it('matches loosely, as expressions compare', () => {
    assert.deepEqual(values({ os: ['Linux', 'mac'], v: [12, 14], exclude: [{ os: 'LINUX', v: '12' }] }), [
      { os: 'Linux', v: 14 },
      { os: 'mac', v: 12 },
      { os: 'mac', v: 14 },
    ]);
  });

  it('matches nested maps partially and lists item by item', () => {
    const matrix = {
      node: [{ version: 14, npm: 6 }, { version: 16, npm: 8 }],
      list: [[1, 2], [3, 4]],
      exclude: [{ node: { version: 14 } }, { list: [3] }],
    };
    assert.deepEqual(values(matrix), [{ node: { version: 16, npm: 8 }, list: [1, 2] }]);
  });

  it('finds keys case-insensitively', () => {
    assert.deepEqual(values({ os: ['a', 'b'], exclude: [{ OS: 'a' }] }), [{ os: 'b' }]);
  });

  it('yields nothing when everything is excluded', () => {
    assert.deepEqual(values({ os: ['a'], exclude: [{ os: 'a' }] }), []);
  });
});

describe('expandMatrix: include', () => {
  it('adds values to matching combinations, overwriting only added values', () => {
    assert.deepEqual(
      values({ os: ['a', 'b'], include: [{ os: 'a', x: 1 }, { x: 2, y: 3 }, { os: 'a', x: 4 }] }),
      [
        { os: 'a', x: 4, y: 3 },
        { os: 'b', x: 2, y: 3 },
      ],
    );
  });

  it('never overwrites a vector value: such an entry becomes its own combination', () => {
    const result = expandMatrix({ os: ['a'], include: [{ os: 'c', x: 1 }, { os: 'c' }] });
    assert.ok(result.ok);
    assert.deepEqual(result.combinations.map((c) => [c.values, c.origin, c.nameKeys]), [
      [{ os: 'a' }, 'product', ['os']],
      [{ os: 'c', x: 1 }, 'include', ['os', 'x']],
      [{ os: 'c' }, 'include', ['os']],
    ]);
  });

  it('puts the vector keys of an added combination first', () => {
    const result = expandMatrix({ os: ['a'], include: [{ npm: 6, os: 'z' }] });
    assert.ok(result.ok);
    assert.deepEqual(Object.keys(result.combinations[1]?.values ?? {}), ['os', 'npm']);
    assert.deepEqual(result.combinations[1]?.nameKeys, ['os', 'npm']);
  });

  it('applies include after exclude, so include can add back an excluded combination', () => {
    assert.deepEqual(values({ os: ['a', 'b'], exclude: [{ os: 'a' }], include: [{ os: 'a' }] }), [{ os: 'b' }, { os: 'a' }]);
  });

  it('runs one job per entry of an include-only matrix', () => {
    assert.deepEqual(values({ include: [{ site: 'production' }, { site: 'staging' }] }), [{ site: 'production' }, { site: 'staging' }]);
  });

  it('keeps the first spelling of a key added by several entries', () => {
    assert.deepEqual(values({ os: ['a'], include: [{ Color: 'red' }, { color: 'blue' }] }), [{ os: 'a', Color: 'blue' }]);
  });
});

describe('expandMatrix: errors', () => {
  it('rejects empty vectors and matrices without vectors', () => {
    assert.deepEqual(errors({ os: [] }), ["Matrix vector 'os' does not contain any values"]);
    assert.deepEqual(errors({}), ['Matrix must define at least one vector']);
    assert.deepEqual(errors({ include: [] }), ['Matrix must define at least one vector']);
  });

  it('rejects unknown exclude keys and empty entries', () => {
    assert.deepEqual(errors({ os: ['a'], exclude: [{ arch: 'x' }] }), ["Matrix exclude key 'arch' does not match any key within the matrix"]);
    assert.deepEqual(errors({ os: ['a'], exclude: [{}] }), ['Matrix exclude filter must not be empty']);
    assert.deepEqual(errors({ os: ['a'], include: [{}] }), ['Matrix include mapping does not contain any values']);
  });

  it('rejects shapes that are not lists and maps', () => {
    assert.equal(errors({ os: 'a' }).length, 1);
    assert.equal(errors({ os: ['a'], include: { x: 1 } }).length, 1);
    assert.equal(errors({ os: ['a'], exclude: ['x'] }).length, 1);
    assert.equal(errors(['a']).length, 1);
    assert.equal(errors({ os: ['a'], OS: ['b'] }).length, 1);
  });

  it('allows 256 jobs and refuses more, counting added combinations', () => {
    const sixteen = Array.from({ length: 16 }, (_, i) => i);
    assert.equal(values({ a: sixteen, b: sixteen }).length, MATRIX_JOB_LIMIT);
    assert.deepEqual(errors({ a: sixteen, b: sixteen, include: [{ a: 99 }] }, 'build'), [
      "Strategy expansion exceeded 256 results for job 'build'",
    ]);
    assert.equal(values({ a: sixteen, b: [...sixteen, 16], exclude: [{ b: 16 }] }).length, 256);
  });

  it('refuses huge cross products without walking them', () => {
    const ten = Array.from({ length: 10 }, (_, i) => i);
    const started = Date.now();
    assert.equal(errors({ a: ten, b: ten, c: ten, d: ten, e: ten, f: ten, g: ten }).length, 1);
    assert.ok(Date.now() - started < 1000);
  });
});
