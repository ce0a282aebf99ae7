import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { NotFoundError } from '../../core/kernel/index.js';
import { archiveName, assertRunRef } from './archive-ref.js';
import { advertisedRef } from './repository-view.js';

const sha = '0123456789abcdef0123456789abcdef01234567';
const target = { runId: 3, repository: 'Acme/App', sha, ref: 'refs/heads/feature/x' };

describe('archive refs', () => {
  it("accepts the run's sha (7+ digits, any case), its ref and the ref's short names", () => {
    for (const ref of ['', sha, sha.slice(0, 7), sha.slice(0, 12).toUpperCase(), 'refs/heads/feature/x', 'heads/feature/x', 'feature/x']) {
      assert.doesNotThrow(() => assertRunRef(target, ref), ref);
    }
  });

  it('is a NotFoundError for anything else', () => {
    for (const ref of [sha.slice(0, 6), 'f'.repeat(40), 'x', 'main', 'refs/heads/feature', 'tags/feature/x']) {
      assert.throws(() => assertRunRef(target, ref), NotFoundError, ref);
    }
  });

  it("names the archive as GitHub does: <owner>-<repo>-<short sha>", () => {
    assert.equal(archiveName(target), 'Acme-App-0123456');
  });
});

describe('advertisedRef', () => {
  it('keeps ref names git accepts and drops the rest', () => {
    for (const ref of ['refs/heads/main', 'refs/pull/7/merge', 'refs/tags/v1.2+build']) assert.equal(advertisedRef(ref), ref);
    for (const ref of ['main', 'refs/heads/a..b', 'refs/heads/.hidden', 'refs/heads/x.lock', 'refs/heads//x', 'refs/heads/a b', 'refs/heads/x\n0000']) {
      assert.equal(advertisedRef(ref), undefined, JSON.stringify(ref));
    }
  });
});
