import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { localEvent, ZERO_SHA } from './local-event.js';

const TREE = { repository: 'octo/app', ref: 'refs/heads/topic', sha: 'a'.repeat(40), actor: 'mona' };

describe('localEvent', () => {
  it('makes a push of the current branch by default', () => {
    const event = localEvent(TREE);
    assert.equal(event.name, 'push');
    assert.equal(event.ref, undefined, 'the payload carries the ref');
    assert.deepEqual(event.payload, {
      repository: { full_name: 'octo/app', name: 'app', owner: { login: 'octo' }, default_branch: 'topic' },
      sender: { login: 'mona' },
      ref: 'refs/heads/topic',
      before: ZERO_SHA,
      after: 'a'.repeat(40),
    });
  });

  it('invents no pull-request fields; the working tree gives ref and commit', () => {
    const event = localEvent({ ...TREE, name: 'pull_request' });
    assert.equal(event.payload?.['pull_request'], undefined);
    assert.equal(event.payload?.['number'], undefined);
    assert.equal(event.ref, 'refs/heads/topic');
    assert.equal(event.sha, 'a'.repeat(40));
  });

  it('merges the given payload over its own, and takes ref and commit from it when it has them', () => {
    const payload = { number: 7, pull_request: { number: 7, merge_commit_sha: 'b'.repeat(40), base: { ref: 'main' } }, repository: { default_branch: 'main' } };
    const event = localEvent({ ...TREE, name: 'pull_request', payload });
    assert.equal(event.ref, undefined);
    assert.equal(event.sha, undefined);
    assert.deepEqual(event.payload?.['repository'], { full_name: 'octo/app', name: 'app', owner: { login: 'octo' }, default_branch: 'main' });
    assert.deepEqual(event.payload?.['pull_request'], payload.pull_request);
  });
});
