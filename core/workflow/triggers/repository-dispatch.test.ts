import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { checkRepositoryDispatchBody } from './repository-dispatch.js';

describe('checkRepositoryDispatchBody', () => {
  it('accepts an event type of 1 to 100 characters and an optional object payload', () => {
    assert.deepEqual(checkRepositoryDispatchBody({ event_type: 'test_result' }), { ok: true, eventType: 'test_result', clientPayload: undefined });
    const withPayload = checkRepositoryDispatchBody({ event_type: 'x', client_payload: { passed: false } });
    assert.ok(withPayload.ok);
    assert.deepEqual(withPayload.clientPayload, { passed: false });
    assert.equal(checkRepositoryDispatchBody({ event_type: '😀'.repeat(100) }).ok, true);
  });

  it('rejects empty, long or missing event types and non-object payloads', () => {
    for (const body of [{ event_type: '' }, { event_type: 'a'.repeat(101) }, {}, { event_type: 3 }, { event_type: 'x', client_payload: [] }, { event_type: 'x', client_payload: null }, 'x']) {
      assert.equal(checkRepositoryDispatchBody(body).ok, false, JSON.stringify(body));
    }
  });
});
