import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { InputError } from '../../core/kernel/index.js';
import { normalizeEntryPath, TreePaths } from './entry-paths.js';
import { quotePath } from './fast-import.js';

describe('archive entry paths', () => {
  it('normalises ./ prefixes, . segments and doubled or trailing slashes', () => {
    assert.equal(normalizeEntryPath('./a/b.txt'), 'a/b.txt');
    assert.equal(normalizeEntryPath('a//./b/'), 'a/b');
    assert.equal(normalizeEntryPath('./'), '');
    assert.equal(normalizeEntryPath('.github/workflows/ci.yml'), '.github/workflows/ci.yml');
    assert.equal(normalizeEntryPath('..foo/.gitignore'), '..foo/.gitignore', 'names that merely start with dots are fine');
    assert.equal(normalizeEntryPath('a/.gitx/b'), 'a/.gitx/b');
  });

  it('refuses absolute paths, .. segments and .git in any spelling git itself refuses', () => {
    for (const name of ['/abs', 'C:/x', 'C:\\x', '..', 'a/../b', '../', '.git', 'a/.Git/b', '.git ', '.git...', 'GIT~1/config', 'a\0b']) {
      assert.throws(() => normalizeEntryPath(name), (error: unknown) => error instanceof InputError && error.code === 'snapshot_entry_refused', JSON.stringify(name));
    }
  });

  it('refuses a path twice, or as both file and directory, in either order', () => {
    const paths = new TreePaths();
    paths.addDirectory('a', 'a/');
    paths.addFile('a/b/c', 'a/b/c');
    assert.throws(() => paths.addFile('a/b/c', './a/b/c'), /appears twice/);
    assert.throws(() => paths.addFile('a/b', 'a/b'), /also a directory/);
    assert.throws(() => paths.addFile('a/b/c/d', 'a/b/c/d'), /is a file in the archive/);
    assert.throws(() => paths.addDirectory('a/b/c', 'a/b/c/'), /also a file/);
    assert.throws(() => paths.addFile('', './'), /root directory/);
    paths.addDirectory('a/b', 'a/b/');
    paths.addDirectory('', './');
  });
});

describe('fast-import path quoting', () => {
  it('quotes every path and escapes quotes, backslashes and control bytes, keeping UTF-8', () => {
    assert.equal(quotePath('a b').toString(), '"a b"');
    assert.equal(quotePath('"q"\\').toString(), '"\\"q\\"\\\\"');
    assert.equal(quotePath('new\nline\ttab\x7f').toString(), '"new\\012line\\011tab\\177"');
    assert.equal(quotePath('ü').toString('utf8'), '"ü"');
  });
});
