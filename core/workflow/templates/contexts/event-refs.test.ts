import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { eventRef, refName, refType } from './event-refs.js';

const repository = { default_branch: 'main', full_name: 'octo/hello' };

describe('eventRef ("Events that trigger workflows": GITHUB_REF and GITHUB_SHA)', () => {
  test('push: the ref pushed and its new tip; a deleted branch reverts to the default branch', () => {
    assert.deepEqual(eventRef('push', { ref: 'refs/tags/v1', after: 'c0ffee', repository }), { ref: 'refs/tags/v1', sha: 'c0ffee' });
    assert.deepEqual(eventRef('push', { ref: 'refs/heads/x', deleted: true, after: '0000', repository }), { ref: 'refs/heads/main', sha: undefined });
  });

  test('pull_request: the merge branch and the merge commit; pull_request_target: the base branch', () => {
    const pull_request = { number: 5, merge_commit_sha: 'm3rge', base: { ref: 'dev', sha: 'ba5e' }, head: { ref: 'feature' } };
    assert.deepEqual(eventRef('pull_request', { number: 5, pull_request, repository }), { ref: 'refs/pull/5/merge', sha: 'm3rge' });
    assert.deepEqual(eventRef('pull_request_review', { pull_request, repository }), { ref: 'refs/pull/5/merge', sha: 'm3rge' });
    assert.deepEqual(eventRef('pull_request_target', { pull_request, repository }), { ref: 'refs/heads/dev', sha: undefined });
  });

  test('release, create, deployment, workflow_dispatch, merge_group', () => {
    assert.deepEqual(eventRef('release', { release: { tag_name: 'v2' }, repository }), { ref: 'refs/tags/v2', sha: undefined });
    assert.deepEqual(eventRef('create', { ref: 'v3', ref_type: 'tag', repository }), { ref: 'refs/tags/v3', sha: undefined });
    assert.deepEqual(eventRef('create', { ref: 'topic', ref_type: 'branch', repository }), { ref: 'refs/heads/topic', sha: undefined });
    assert.deepEqual(eventRef('deployment', { deployment: { ref: 'main', sha: 'd3p' }, repository }), { ref: 'refs/heads/main', sha: 'd3p' });
    assert.deepEqual(eventRef('deployment', { deployment: { ref: 'd3p', sha: 'd3p' }, repository }), { ref: '', sha: 'd3p' });
    assert.deepEqual(eventRef('workflow_dispatch', { ref: 'refs/heads/dev', repository }), { ref: 'refs/heads/dev', sha: undefined });
    assert.deepEqual(eventRef('merge_group', { merge_group: { head_ref: 'refs/heads/gh-readonly-queue/main/pr-1', head_sha: 'q' } }), {
      ref: 'refs/heads/gh-readonly-queue/main/pr-1',
      sha: 'q',
    });
  });

  test('every other event runs on the default branch', () => {
    for (const name of ['schedule', 'issues', 'workflow_run', 'repository_dispatch', 'check_run']) {
      assert.deepEqual(eventRef(name, { repository }), { ref: 'refs/heads/main', sha: undefined }, name);
    }
  });
});

test('ref_name and ref_type', () => {
  assert.deepEqual([refName('refs/heads/feat/x'), refType('refs/heads/feat/x')], ['feat/x', 'branch']);
  assert.deepEqual([refName('refs/tags/v1'), refType('refs/tags/v1')], ['v1', 'tag']);
  assert.deepEqual([refName('refs/pull/7/merge'), refType('refs/pull/7/merge')], ['7/merge', 'branch']);
  assert.deepEqual([refName(''), refType('')], ['', '']);
});
