import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { escapeRegex } from './mask-hints.js';
import { JOB_TOKEN_SLOT, withJobToken } from './job-token-slot.js';

describe('the job token slot of a stored job message', () => {
  it('is filled wherever it stands, the mask hint as a regex of the token; nothing else changes', () => {
    const token = 'eyJhbGciOiJSUzI1NiJ9.eyJzdWIiOiJqb2I6MSJ9.c2lnbmF0dXJl';
    const stored = {
      resources: { endpoints: [{ name: 'SystemVssConnection', authorization: { scheme: 'OAuth', parameters: { AccessToken: JOB_TOKEN_SLOT } } }] },
      variables: { 'system.github.token': { value: JOB_TOKEN_SLOT, isSecret: true }, other: { value: `${JOB_TOKEN_SLOT}-not-the-slot` } },
      mask: [{ type: 'regex', value: JOB_TOKEN_SLOT }, { type: 'regex', value: 's3cr3t' }],
      steps: [{ id: 'a', inputs: [1, null, true, JOB_TOKEN_SLOT] }],
    };
    assert.equal(escapeRegex(JOB_TOKEN_SLOT), JOB_TOKEN_SLOT, 'the slot is its own mask hint');
    assert.deepEqual(withJobToken(stored, token), {
      resources: { endpoints: [{ name: 'SystemVssConnection', authorization: { scheme: 'OAuth', parameters: { AccessToken: token } } }] },
      variables: { 'system.github.token': { value: token, isSecret: true }, other: { value: `${JOB_TOKEN_SLOT}-not-the-slot` } },
      mask: [{ type: 'regex', value: escapeRegex(token) }, { type: 'regex', value: 's3cr3t' }],
      steps: [{ id: 'a', inputs: [1, null, true, token] }],
    });
  });
});
