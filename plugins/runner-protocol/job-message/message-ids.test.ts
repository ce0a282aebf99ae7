import assert from 'node:assert/strict';
import { test } from 'node:test';
import { isGuid, jobIdFor, planIdFor, stepIdFor, uuidV5 } from './message-ids.js';

test('uuidV5 is RFC 4122 version 5 (the RFC example: www.example.com in the DNS namespace)', () => {
  assert.equal(uuidV5('6ba7b810-9dad-11d1-80b4-00c04fd430c8', 'www.example.com'), '2ed6657d-e927-568b-95e1-2665a8aea6a2');
  assert.throws(() => uuidV5('not-a-guid', 'x'), TypeError);
});

test('ids are stable per run attempt and job attempt, and distinct otherwise', () => {
  const plan = planIdFor({ id: 7, runAttempt: 1 });
  assert.equal(plan, planIdFor({ id: 7, runAttempt: 1 }));
  assert.notEqual(plan, planIdFor({ id: 7, runAttempt: 2 }));
  assert.notEqual(plan, planIdFor({ id: 8, runAttempt: 1 }));
  const job = jobIdFor(plan, { id: 3, attempt: 1 });
  assert.notEqual(job, jobIdFor(plan, { id: 3, attempt: 2 }));
  assert.notEqual(stepIdFor(job, 0), stepIdFor(job, 1));
  for (const id of [plan, job, stepIdFor(job, 0)]) assert.ok(isGuid(id), id);
});
