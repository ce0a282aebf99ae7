import assert from 'node:assert/strict';
import { test } from 'node:test';
import { checkArtifactName, checkDigest, contentDisposition } from './artifact-names.js';

test('artifact names: what the toolkit allows, without traversal or control characters', () => {
  for (const name of ['dist', 'my artifact (linux)', 'report.txt', 'ünïcode', 'a'.repeat(255)]) assert.equal(checkArtifactName(name), name);
  for (const name of ['', '.', '..', '../x', 'x/..', 'a\\b', 'a:b', 'a*', 'a?', 'a|b', 'a<b', 'a"b', 'new\nline', 'nul\u0000', ' lead', 'trail ', 'a'.repeat(256)]) {
    assert.throws(() => checkArtifactName(name), /not valid/, JSON.stringify(name));
  }
});

test('digests are sha256:<hex>; downloads name zips <name>.zip and raw files by their name', () => {
  assert.equal(checkDigest(`sha256:${'a'.repeat(64)}`), `sha256:${'a'.repeat(64)}`);
  assert.throws(() => checkDigest('a'.repeat(64)));
  assert.equal(contentDisposition('dist', 'application/zip'), `attachment; filename="dist.zip"; filename*=UTF-8''dist.zip`);
  assert.equal(contentDisposition('report.txt', 'text/plain'), `attachment; filename="report.txt"; filename*=UTF-8''report.txt`);
  assert.equal(contentDisposition('ü "q".txt', null), `attachment; filename="_ _q_.txt"; filename*=UTF-8''%C3%BC%20%22q%22.txt`);
});
