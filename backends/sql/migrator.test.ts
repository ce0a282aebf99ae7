import assert from 'node:assert/strict';
import { test } from 'node:test';
import { isForeignSchemaRace } from './migrator.js';

test('a schema or table of another schema vanishing during the existence check is a race to retry', () => {
  const race = (message: string) => isForeignSchemaRace(new Error(message), 'svc_ours');
  assert.equal(race('schema "svc_t_1adde4c1cc90" does not exist'), true);
  assert.equal(race('relation "svc_t_1adde4c1cc90.runner_results_blocks" does not exist'), true);
  assert.equal(race('column "created_at" of relation "engine_runs" does not exist'), true);
  // Our own schema or an unqualified table: a real problem, reported.
  assert.equal(race('schema "svc_ours" does not exist'), false);
  assert.equal(race('relation "svc_ours.jobs" does not exist'), false);
  assert.equal(race('relation "jobs" does not exist'), false);
  assert.equal(race('permission denied for schema svc_other'), false);
  assert.equal(isForeignSchemaRace('relation "a.b" does not exist', 'svc_ours'), false, 'only errors are classified');
});
