import assert from 'node:assert/strict';
import { test } from 'node:test';
import { StepIds } from './step-ids.js';

test('generated ids replace what an id cannot hold and count up when taken', () => {
  const ids = new StepIds();
  assert.equal(ids.addKnown('build'), undefined);
  assert.equal(ids.generate('run'), '__run');
  assert.equal(ids.generate('run'), '__run_2');
  assert.equal(ids.generate('alpine:3.19'), '__alpine_3_19');
  assert.equal(ids.generate('octo/hello'), '__octo_hello');
});

test('generated ids are cut to fit, suffix included', () => {
  const ids = new StepIds();
  const long = 'a'.repeat(200);
  assert.equal(ids.generate(long).length, 100);
  assert.equal(ids.generate(long), `__${'a'.repeat(96)}_2`);
});

test('an id of 100 characters or more is invalid; `-` may not start it', () => {
  const ids = new StepIds();
  assert.match(ids.addKnown('a'.repeat(100)) ?? '', /must be less than 100 characters/);
  assert.equal(ids.addKnown('a'.repeat(99)), undefined);
  assert.match(ids.addKnown('-x') ?? '', /is invalid/);
  assert.equal(ids.addKnown('_x-1'), undefined);
});
