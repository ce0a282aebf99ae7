import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { applyTokenCeiling, DEFAULT_TOKEN_PERMISSIONS, describeCapped } from './token-ceiling.js';

const WRITE_ALL = { actions: 'write', contents: 'write', 'id-token': 'write', issues: 'read', 'pull-requests': 'write' } as const;

describe('applyTokenCeiling', () => {
  it('without a ceiling changes nothing, not even the default set (undefined stays undefined)', () => {
    assert.deepEqual(applyTokenCeiling(WRITE_ALL, undefined), { permissions: WRITE_ALL, capped: [] });
    assert.deepEqual(applyTokenCeiling(undefined, undefined), { permissions: undefined, capped: [] });
  });

  it('caps each scope at its own key, else at default; levels order none < read < write < admin', () => {
    const { permissions, capped } = applyTokenCeiling(WRITE_ALL, { default: 'read', contents: 'write', 'id-token': 'none', actions: 'admin' });
    assert.deepEqual(permissions, { actions: 'write', contents: 'write', 'id-token': 'none', issues: 'read', 'pull-requests': 'read' });
    assert.deepEqual(capped, [
      { scope: 'id-token', requested: 'write', allowed: 'none' },
      { scope: 'pull-requests', requested: 'write', allowed: 'read' },
    ]);
  });

  it('a scope named by neither its key nor default keeps the workflow level; a key never raises one', () => {
    const { permissions, capped } = applyTokenCeiling({ contents: 'read', issues: 'write', packages: 'none' }, { contents: 'write', packages: 'admin', checks: 'none' });
    assert.deepEqual(permissions, { contents: 'read', issues: 'write', packages: 'none' });
    assert.deepEqual(capped, []);
  });

  it('allow_create_approve_pr = false caps pull-requests at read, below a higher key or default', () => {
    assert.deepEqual(applyTokenCeiling({ 'pull-requests': 'write' }, { allow_create_approve_pr: false }).permissions, { 'pull-requests': 'read' });
    assert.deepEqual(applyTokenCeiling({ 'pull-requests': 'write' }, { default: 'admin', 'pull-requests': 'write', allow_create_approve_pr: false }).permissions, {
      'pull-requests': 'read',
    });
    assert.deepEqual(applyTokenCeiling({ 'pull-requests': 'write' }, { 'pull-requests': 'none', allow_create_approve_pr: false }).permissions, { 'pull-requests': 'none' });
    assert.deepEqual(applyTokenCeiling({ 'pull-requests': 'write' }, { allow_create_approve_pr: true }).permissions, { 'pull-requests': 'write' });
  });

  it("caps GitHub's default set when the workflow sets no permissions", () => {
    assert.deepEqual(applyTokenCeiling(undefined, { default: 'read' }), { permissions: DEFAULT_TOKEN_PERMISSIONS, capped: [] });
    const { permissions, capped } = applyTokenCeiling(undefined, { contents: 'none' });
    assert.deepEqual(permissions, { contents: 'none', packages: 'read' });
    assert.equal(describeCapped(capped), 'contents: read -> none');
  });

  it('an empty table caps nothing but still pins the default set', () => {
    assert.deepEqual(applyTokenCeiling(WRITE_ALL, {}), { permissions: { ...WRITE_ALL }, capped: [] });
    assert.deepEqual(applyTokenCeiling(undefined, {}).permissions, DEFAULT_TOKEN_PERMISSIONS);
  });
});
