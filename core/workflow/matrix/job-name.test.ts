import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { expandMatrix } from './expand-matrix.js';
import { matrixJobName } from './job-name.js';
import type { JsonValue } from './types.js';

function names(base: string, matrix: JsonValue): string[] {
  const result = expandMatrix(matrix);
  assert.ok(result.ok);
  return result.combinations.map((c) => matrixJobName(base, c));
}

describe('matrixJobName', () => {
  it('lists the vector values in order', () => {
    assert.deepEqual(names('build', { os: ['ubuntu-latest'], node: [18, 20] }), ['build (ubuntu-latest, 18)', 'build (ubuntu-latest, 20)']);
  });

  it('leaves out values an include added to a combination, shows all of an added combination', () => {
    assert.deepEqual(names('test', { os: ['windows-latest'], node: [16], include: [{ os: 'windows-latest', npm: 6 }, { os: 'macos', node: 20, npm: 9 }] }), [
      'test (windows-latest, 16)',
      'test (macos, 20, 9)',
    ]);
  });

  it('flattens maps and lists depth first, without keys, skipping empty strings and nulls', () => {
    assert.deepEqual(names('job', { cfg: [{ version: 20, env: 'NODE_OPTIONS=x', extra: [true, '', null, 1.5] }] }), ['job (20, NODE_OPTIONS=x, true, 1.5)']);
  });

  it('shows the bare name when nothing is left to show', () => {
    assert.deepEqual(names('job', { x: [''] }), ['job']);
    assert.equal(matrixJobName('job', { values: {}, nameKeys: [] }), 'job');
  });

  it('cuts names longer than 100 characters to 97 and "..."', () => {
    const [name] = names('job', { long: ['x'.repeat(120)] });
    assert.equal(name?.length, 100);
    assert.ok(name?.endsWith('...'));
    assert.equal(names('j', { v: ['x'.repeat(96)] })[0], `j (${'x'.repeat(96)})`);
    assert.equal(names('j', { v: ['x'.repeat(97)] })[0], `j (${'x'.repeat(94)}...`);
  });
});
