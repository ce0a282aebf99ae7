import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { matcherProblems, matchValue } from './match.js';

describe('replay matcher', () => {
  it('objects are partial, names found without case, arrays exact', () => {
    assert.deepEqual(matchValue({ typeKey: 'X' }, { TypeKey: 'X', message: 'm' }), []);
    assert.equal(matchValue([1, 2], [1, 2, 3]).length, 1);
    assert.equal(matchValue({ a: { $absent: true } }, { a: null }).length, 1);
    assert.deepEqual(matchValue({ a: { $absent: true } }, {}), []);
  });

  it('operators', () => {
    assert.deepEqual(matchValue({ $ci: 'Succeeded' }, 'succeeded'), []);
    assert.deepEqual(matchValue({ $format: 'time-span' }, '00:05:00'), []);
    assert.equal(matchValue({ $format: 'time-span' }, '5 minutes').length, 1);
    assert.deepEqual(matchValue({ $contains: [{ k: 'b' }] }, [{ k: 'a' }, { k: 'b' }]), []);
    assert.equal(matchValue({ $contains: [{ k: 'c' }] }, [{ k: 'a' }]).length, 1);
    assert.deepEqual(matchValue({ $count: { of: { type: 'annotation' }, is: 2 } }, [{ type: 'annotation' }, { type: 'log' }, { type: 'annotation' }]), []);
    assert.equal(matchValue({ $count: { of: { type: 'annotation' }, is: 1 } }, [{ type: 'annotation' }, { type: 'annotation' }]).length, 1);
    assert.equal(matchValue({ $unique: 'identifier' }, [{ identifier: 'A' }, { identifier: 'a' }]).length, 1);
    assert.deepEqual(matchValue({ $authorityOf: 'http://h:8080' }, 'http://h:8080/_services/'), []);
    assert.equal(matchValue({ $authorityOf: 'http://h:8080' }, 'http://h:3000/').length, 1, 'another port is another authority');
    assert.deepEqual(matchValue({ $after: '2026-01-01T00:00:00Z' }, '2026-01-01T00:10:00.0000000Z'), []);
    assert.deepEqual(matchValue({ $sameRoot: true }, ['o-r-abc/', 'o-r-abc/action.yml']), []);
    assert.equal(matchValue({ $sameRoot: true }, ['a/action.yml', 'b/x']).length, 1);
    assert.deepEqual(matchValue({ $oneOf: [false, { $absent: true }] }, undefined), []);
    assert.deepEqual(matchValue({ $json: { a: 1 } }, '{"a":1}'), []);
  });

  it('finds defects of the corpus: unknown operators, objects that mix operators and members', () => {
    assert.deepEqual(matcherProblems({ a: { $regexp: 'x' } }), ["unknown matcher operator '$regexp'"]);
    assert.equal(matcherProblems({ $oneOf: [], b: 1 }).length, 1);
    assert.deepEqual(matcherProblems({ a: [{ $ci: 'x' }] }), []);
  });
});
