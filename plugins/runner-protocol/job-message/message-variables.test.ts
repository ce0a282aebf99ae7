import assert from 'node:assert/strict';
import { test } from 'node:test';
import { escapeRegex } from './mask-hints.js';
import { tokenPermissions } from './message-variables.js';

test('token permissions as github.com prints them: PascalCase, sorted, Metadata always read', () => {
  assert.equal(tokenPermissions({ contents: 'read' }), '{"Contents":"read","Metadata":"read"}');
  assert.equal(
    tokenPermissions({ 'pull-requests': 'write', 'id-token': 'write', issues: 'none', packages: 'read' }),
    '{"IdToken":"write","Metadata":"read","Packages":"read","PullRequests":"write"}',
  );
  // No permissions: block: the restricted default.
  assert.equal(tokenPermissions(undefined), '{"Contents":"read","Metadata":"read","Packages":"read"}');
});

test('mask hints escape what a .NET regex would read as syntax', () => {
  assert.equal(escapeRegex('a.b*c+d?e|f{g[h(i)j^k$l#m n\tz'), 'a\\.b\\*c\\+d\\?e\\|f\\{g\\[h\\(i\\)j\\^k\\$l\\#m\\ n\\tz');
  assert.equal(new RegExp(escapeRegex('x.y+(z)')).test('x.y+(z)'), true);
  assert.equal(new RegExp(escapeRegex('x.y')).test('xzy'), false);
});
