import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { allowedContextsFor, allowedNamesFor, fieldDefinition } from './field-contexts.js';

const sorted = (list: readonly string[]): string[] => [...list].sort();

describe('allowedContextsFor', () => {
  test('reads the lists from the workflow schema, inherited down the fields', () => {
    assert.deepEqual(sorted(allowedContextsFor('run-name')), ['github', 'inputs', 'vars']);
    assert.deepEqual(sorted(allowedContextsFor('jobs.<job_id>.runs-on')), ['github', 'inputs', 'matrix', 'needs', 'strategy', 'vars']);
    // A job's env allows secrets, its runs-on does not.
    assert.ok(allowedContextsFor('jobs.<job_id>.env').includes('secrets'));
  });

  test('functions come with their argument counts, in the schema notation', () => {
    assert.deepEqual(
      allowedContextsFor('jobs.<job_id>.if').filter((entry) => entry.includes('(')),
      ['always(0,0)', 'failure(0,MAX)', 'cancelled(0,0)', 'success(0,MAX)'],
    );
    assert.ok(allowedContextsFor('jobs.<job_id>.steps.run').includes('hashFiles(1,255)'));
  });

  test('concrete ids stand for loose keys, and a property of sequence items steps into the sequence', () => {
    assert.deepEqual(allowedContextsFor('jobs.build.steps.run'), allowedContextsFor('jobs.<job_id>.steps[*].run'));
    assert.equal(fieldDefinition('jobs.<job_id>.steps.with').definition.definition.key, 'step-with');
    assert.equal(fieldDefinition('jobs.<job_id>.services.db.env.PGUSER').definition.definition.key, 'string-runner-context');
  });

  test('the same field is found once per process and answered from then on', () => {
    assert.equal(fieldDefinition('concurrency'), fieldDefinition('concurrency'));
  });

  test('a field the schema does not have is a TypeError', () => {
    assert.throws(() => allowedContextsFor('jobs.<job_id>.runs-on.nope'), TypeError);
    assert.throws(() => allowedContextsFor('nope'), /no field 'nope'/);
  });

  test('action manifests have their own lists', () => {
    assert.deepEqual(sorted(allowedContextsFor('runs.env', 'action')), ['inputs']);
    assert.ok(!allowedContextsFor('runs.steps.run', 'action').includes('secrets'));
    assert.deepEqual(sorted(allowedContextsFor('inputs.<input_id>.default', 'action')), [
      'github',
      'hashFiles(1,255)',
      'job',
      'matrix',
      'runner',
      'strategy',
    ]);
  });

  test('allowedNamesFor gives the expression layer the same list', () => {
    const names = allowedNamesFor('jobs.<job_id>.steps.if');
    assert.ok(names.contexts.includes('steps'));
    assert.deepEqual(names.functions.find((fn) => fn.name === 'hashFiles'), { name: 'hashFiles', minArgs: 1, maxArgs: 255 });
  });
});
