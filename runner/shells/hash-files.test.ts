import { strict as assert } from 'node:assert';
import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { HashFilesError, hashFilesSync } from './index.js';

const FILES: Record<string, string> = {
  'a/b/x.txt': 'x',
  'a/c.txt': 'c',
  'a-b/y.txt': 'y',
  'a.txt': 'a',
  '.hidden/h.txt': 'hidden',
  'pkg/package-lock.json': '{"lockfileVersion":3}',
  'pkg/node_modules/dep/package-lock.json': '{"nested":true}',
  'src/main.ts': 'export {};\n',
  'src/[x]/lit.ts': 'literal brackets',
};

function fixture(t: { after(fn: () => void): void }): { ws: string; outside: string } {
  const root = realpathSync(mkdtempSync(join(tmpdir(), 'svc-hashfiles-')));
  t.after(() => rmSync(root, { recursive: true, force: true }));
  const ws = join(root, 'ws');
  for (const [name, content] of Object.entries(FILES)) {
    mkdirSync(join(ws, name, '..'), { recursive: true });
    writeFileSync(join(ws, name), content);
  }
  const outside = join(root, 'outside');
  mkdirSync(outside);
  writeFileSync(join(outside, 'o.txt'), 'outside');
  return { ws, outside };
}

/** The expected value, computed here from the contents in the expected order. */
function digestOf(contents: readonly string[]): string {
  const result = createHash('sha256');
  for (const content of contents) result.update(createHash('sha256').update(content).digest());
  return result.digest('hex');
}

function expected(names: readonly string[]): string {
  return digestOf(
    names.map((name) => {
      const content = FILES[name];
      assert.ok(content !== undefined, name);
      return content;
    }),
  );
}

test('hashes matched files in walk order: depth first, names in byte order, not full-path order', (t) => {
  const { ws } = fixture(t);
  // `a/` sorts before `a-b/` as a directory name ("a" < "a-b"), so a/c.txt precedes a-b/y.txt
  // although "a-b/y.txt" < "a/c.txt" as paths.
  assert.equal(hashFilesSync(ws, ['**/*.txt']), expected(['.hidden/h.txt', 'a/b/x.txt', 'a/c.txt', 'a-b/y.txt', 'a.txt']));
  assert.notEqual(hashFilesSync(ws, ['**/*.txt']), expected(['.hidden/h.txt', 'a-b/y.txt', 'a.txt', 'a/b/x.txt', 'a/c.txt']));
});

test('a single file, a directory pattern and ** all hash files only', (t) => {
  const { ws } = fixture(t);
  assert.equal(hashFilesSync(ws, ['src/main.ts']), expected(['src/main.ts']));
  assert.equal(hashFilesSync(ws, ['a']), expected(['a/b/x.txt', 'a/c.txt']), 'a directory matches everything below it');
  assert.equal(hashFilesSync(ws, ['src/[[]x]/lit.ts']), expected(['src/[x]/lit.ts']));
  assert.equal(
    hashFilesSync(ws, ['**']),
    expected(['.hidden/h.txt', 'a/b/x.txt', 'a/c.txt', 'a-b/y.txt', 'a.txt', 'pkg/node_modules/dep/package-lock.json', 'pkg/package-lock.json', 'src/[x]/lit.ts', 'src/main.ts']),
  );
});

test('! excludes, in pattern order; several patterns hash in the order of their search paths', (t) => {
  const { ws } = fixture(t);
  assert.equal(hashFilesSync(ws, ['**/package-lock.json', '!**/node_modules/**']), expected(['pkg/package-lock.json']));
  assert.equal(hashFilesSync(ws, ['**/*.txt', '!a/**', '!!a/b/**']), expected(['.hidden/h.txt', 'a/b/x.txt', 'a-b/y.txt', 'a.txt']));
  assert.equal(hashFilesSync(ws, ['src/*.ts', 'a/*.txt']), expected(['src/main.ts', 'a/c.txt']));
  assert.equal(hashFilesSync(ws, ['src/*.ts\na/*.txt']), expected(['src/main.ts', 'a/c.txt']), 'one argument may hold several lines');
});

test("no match gives ''; so do files outside the workspace", (t) => {
  const { ws, outside } = fixture(t);
  assert.equal(hashFilesSync(ws, ['**/*.nothing']), '');
  assert.equal(hashFilesSync(ws, ['missing-dir/**']), '');
  assert.equal(hashFilesSync(ws, [`${outside}/*`]), '');
  assert.equal(hashFilesSync(ws, []), '');
});

test('symbolic links are followed only with --follow-symbolic-links first', (t) => {
  const { ws, outside } = fixture(t);
  symlinkSync(join(ws, 'a'), join(ws, 'linkdir'));
  symlinkSync(outside, join(ws, 'outlink'));
  symlinkSync(join(ws, 'nowhere'), join(ws, 'broken.txt'));
  assert.equal(hashFilesSync(ws, ['linkdir/**']), '', 'a link to a directory is not entered');
  assert.equal(hashFilesSync(ws, ['--follow-symbolic-links', 'linkdir/**']), expected(['a/b/x.txt', 'a/c.txt']));
  assert.equal(hashFilesSync(ws, ['--FOLLOW-SYMBOLIC-LINKS', 'outlink/*']), digestOf(['outside']), 'a link inside the workspace counts as inside');
  symlinkSync(ws, join(ws, 'a', 'cycle'));
  // a/cycle -> the workspace is entered once; inside it, a and linkdir lead back to a/ and stop.
  const once = ['.hidden/h.txt', 'a-b/y.txt', 'a.txt'].map((n) => FILES[n] ?? '');
  const below = ['pkg/node_modules/dep/package-lock.json', 'pkg/package-lock.json', 'src/[x]/lit.ts', 'src/main.ts'].map((n) => FILES[n] ?? '');
  assert.equal(hashFilesSync(ws, ['--follow-symbolic-links', 'a/**']), digestOf(['x', 'c', ...once, 'outside', ...below]));
  assert.equal(hashFilesSync(ws, ['a/**']), expected(['a/b/x.txt', 'a/c.txt']), 'not following, the cycle link is no directory');
  assert.throws(() => hashFilesSync(ws, ['broken.txt']), (error: unknown) => error instanceof HashFilesError && /^hashFiles\('broken\.txt'\) failed\./.test(error.message));
  assert.equal(hashFilesSync(ws, ['--follow-symbolic-links', 'broken.txt']), '', 'a broken link is skipped when following');
});

test('invalid patterns and options fail with the runner messages', (t) => {
  const { ws } = fixture(t);
  assert.throws(
    () => hashFilesSync(ws, ['../x', "it's"]),
    (error: unknown) => error instanceof HashFilesError && error.message === `hashFiles('../x, it''s') failed. Fail to hash files under directory '${ws}'`,
  );
  assert.throws(() => hashFilesSync(ws, ['a/./b']), HashFilesError);
  assert.throws(
    () => hashFilesSync(ws, ['--recursive', '**']),
    /^HashFilesError: Specified argument was out of the range of valid values\. \(Parameter 'Invalid glob option --recursive, avaliable option: '--follow-symbolic-links'\.'\)$/,
  );
  assert.throws(() => hashFilesSync(join(ws, 'no-such-dir'), ['**']), HashFilesError);
});
