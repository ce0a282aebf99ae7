import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { deploymentPatternMatches } from './deployment-patterns.js';
import { refNotAllowed } from './environment-gate.js';

describe('deployment branch and tag patterns', () => {
  it('`*` and `?` stop at `/`; `**` crosses it', () => {
    assert.equal(deploymentPatternMatches('releases/*', 'releases/v1'), true);
    assert.equal(deploymentPatternMatches('releases/*', 'releases/v1/hotfix'), false);
    assert.equal(deploymentPatternMatches('release/*/*', 'release/v1/hotfix'), true);
    assert.equal(deploymentPatternMatches('releases/**', 'releases/v1/hotfix'), true);
    assert.equal(deploymentPatternMatches('**/prod', 'a/b/prod'), true);
    assert.equal(deploymentPatternMatches('**/prod', 'prod'), true);
    assert.equal(deploymentPatternMatches('v?', 'v1'), true);
    assert.equal(deploymentPatternMatches('v?', 'v/'), false);
    assert.equal(deploymentPatternMatches('main', 'main2'), false, 'the whole name must match');
  });

  it('character classes, negation and escapes', () => {
    assert.equal(deploymentPatternMatches('v[0-9].x', 'v3.x'), true);
    assert.equal(deploymentPatternMatches('v[0-9].x', 'v3-x'), false, '`.` is literal');
    assert.equal(deploymentPatternMatches('v[!0-9]', 'va'), true);
    assert.equal(deploymentPatternMatches('v[!0-9]', 'v1'), false);
    assert.equal(deploymentPatternMatches('a\\*b', 'a*b'), true);
    assert.equal(deploymentPatternMatches('a\\*b', 'axb'), false);
    assert.equal(deploymentPatternMatches('fix-(1)+', 'fix-(1)+'), true);
  });

  it("a ref of the other kind is refused with GitHub's message; no lists allow every ref", () => {
    assert.equal(refNotAllowed('refs/heads/any', 'prod', {}), undefined);
    assert.equal(refNotAllowed('refs/tags/v1', 'prod', { deployment_tags: ['v*'] }), undefined);
    assert.equal(refNotAllowed('refs/heads/main', 'prod', { deployment_tags: ['v*'] }), 'Branch "main" is not allowed to deploy to prod due to environment protection rules.');
    assert.equal(refNotAllowed('refs/tags/v1', 'prod', { deployment_branches: ['*'] }), 'Tag "v1" is not allowed to deploy to prod due to environment protection rules.');
  });
});
