import assert from 'node:assert/strict';
import { test } from 'node:test';
import { operationOf } from './upload-route.js';

test('what a PUT asks for: the runner plain PUTs, and the same with Azure headers', () => {
  assert.deepEqual(operationOf({ exp: '1', sig: 's' }, {}), { kind: 'put', type: undefined });
  assert.deepEqual(operationOf({ comp: 'appendblock' }, {}), { kind: 'append', seal: false });
  assert.deepEqual(operationOf({ comp: 'appendblock', seal: 'true' }, {}), { kind: 'append', seal: true });
  assert.deepEqual(operationOf({ comp: 'seal' }, {}), { kind: 'append', seal: true });
  assert.deepEqual(operationOf({}, { 'x-ms-blob-type': 'BlockBlob' }), { kind: 'put', type: 'block' });
  assert.deepEqual(operationOf({}, { 'x-ms-blob-type': 'AppendBlob' }), { kind: 'put', type: 'append' });
  assert.deepEqual(operationOf({ comp: 'appendblock' }, { 'x-ms-blob-sealed': 'True' }), { kind: 'append', seal: true });
});

test('a PUT asking for what uploads do not do is bad input', () => {
  for (const [query, headers] of [
    [{ comp: 'block' }, {}],
    [{ comp: ['appendblock', 'appendblock'] }, {}],
    [{}, { 'x-ms-blob-type': 'PageBlob' }],
  ] as const) {
    assert.throws(() => operationOf(query, headers), (error: Error & { status?: number }) => error.status === 400, JSON.stringify([query, headers]));
  }
});
