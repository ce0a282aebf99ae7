import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { compileFilterPattern } from './glob.js';
import { compileFilterList, isIgnored, isIncluded, matchFilterPatterns } from './filter-list.js';

function matches(pattern: string, value: string): boolean {
  const compiled = compileFilterPattern(pattern);
  assert.ok(compiled.ok, `pattern ${pattern} should compile`);
  return compiled.pattern.regex.test(value);
}

describe('compileFilterPattern', () => {
  it('keeps * inside one path segment and lets ** cross segments', () => {
    assert.equal(matches('feature/*', 'feature/a'), true);
    assert.equal(matches('feature/*', 'feature/a/b'), false);
    assert.equal(matches('feature/**', 'feature/a/b'), true);
    assert.equal(matches('*', ''), true);
  });

  it('reads **/ as zero or more whole directories', () => {
    assert.equal(matches('**/README.md', 'README.md'), true);
    assert.equal(matches('**/README.md', 'a/b/README.md'), true);
    assert.equal(matches('**/README.md', 'xREADME.md'), false);
    assert.equal(matches('a/**/b', 'a/b'), true);
    assert.equal(matches('a/**/b', 'a/x/y/b'), true);
  });

  it('applies ? and + to the preceding character or bracket', () => {
    assert.equal(matches('*.jsx?', 'a.js'), true);
    assert.equal(matches('*.jsx?', 'a.jsxx'), false);
    assert.equal(matches('v[0-9]+', 'v123'), true);
    assert.equal(matches('v[0-9]+', 'v'), false);
    assert.equal(matches('ab+c', 'abbbc'), true);
  });

  it('treats ? and + at the start as plain characters', () => {
    assert.equal(matches('?a', '?a'), true);
    assert.equal(matches('+a', '+a'), true);
    assert.equal(matches('?a', 'a'), false);
  });

  it('makes escaped characters literal', () => {
    assert.equal(matches('a\\*b', 'a*b'), true);
    assert.equal(matches('a\\*b', 'axb'), false);
    assert.equal(matches('c\\+\\+', 'c++'), true);
    assert.equal(matches('release\\?', 'release?'), true);
  });

  it('matches regex metacharacters literally', () => {
    assert.equal(matches('v1.0', 'v1.0'), true);
    assert.equal(matches('v1.0', 'v1x0'), false);
    assert.equal(matches('(a|b){2}$', '(a|b){2}$'), true);
  });

  it('is case-sensitive and anchored', () => {
    assert.equal(matches('main', 'Main'), false);
    assert.equal(matches('main', 'main2'), false);
    assert.equal(matches('main', 'xmain'), false);
  });

  it('keeps a non-BMP character whole before ?', () => {
    assert.equal(matches('a😀?', 'a'), true);
    assert.equal(matches('a😀?', 'a😀'), true);
  });

  it('marks a leading ! as negation, and only a leading one', () => {
    const negated = compileFilterPattern('!docs/**');
    assert.ok(negated.ok);
    assert.equal(negated.pattern.negated, true);
    assert.equal(negated.pattern.regex.test('docs/a'), true);
    assert.equal(matches('a!b', 'a!b'), true);
  });

  it('rejects malformed brackets, ranges and escapes', () => {
    for (const bad of ['[]', '[abc', 'a[b-]', '[-a]', '[a-9]', '[z-a]', '[.]', 'trailing\\', 'a?+']) {
      const compiled = compileFilterPattern(bad);
      assert.equal(compiled.ok, false, `${bad} should be rejected`);
      if (!compiled.ok) assert.match(compiled.error, /invalid filter pattern/);
    }
  });

  it("rejects a doubled '+' as GitHub does (a workflow_run filter on 'C++' fails to parse)", () => {
    assert.equal(compileFilterPattern('Build C++').ok, false);
    assert.equal(compileFilterPattern('Build C\\+\\+').ok, true);
  });

  it('accepts the documented ranges and sub-ranges', () => {
    assert.equal(matches('[0-9a-zA-Z]', 'Q'), true);
    assert.equal(matches('[1-2]00', '200'), true);
    assert.equal(matches('[1-2]00', '300'), false);
  });
});

describe('filter lists', () => {
  it('lets the last matching pattern decide', () => {
    const list = compileFilterList(['releases/**', '!releases/**-alpha', 'releases/keep-alpha']);
    assert.ok(list.ok);
    assert.equal(isIncluded(list.list, 'releases/10'), true);
    assert.equal(isIncluded(list.list, 'releases/10-alpha'), false);
    assert.equal(isIncluded(list.list, 'releases/keep-alpha'), true);
    assert.equal(isIncluded(list.list, 'main'), false);
  });

  it('includes nothing with only negative patterns', () => {
    const list = compileFilterList(['!main']);
    assert.ok(list.ok);
    assert.equal(isIncluded(list.list, 'dev'), false);
  });

  it('restricts nothing with an empty list', () => {
    const list = compileFilterList([]);
    assert.ok(list.ok);
    assert.equal(isIncluded(list.list, 'anything'), true);
    assert.equal(isIgnored(list.list, 'anything'), false);
  });

  it('applies negation inside ignore lists in order', () => {
    const list = compileFilterList(['docs/**', '!docs/keep.md']);
    assert.ok(list.ok);
    assert.equal(isIgnored(list.list, 'docs/a.md'), true);
    assert.equal(isIgnored(list.list, 'docs/keep.md'), false);
  });

  it('reports every invalid pattern', () => {
    const result = matchFilterPatterns(['[', 'ok', '[]'], 'ok');
    assert.equal(result.ok, false);
    if (!result.ok) assert.equal(result.errors.length, 2);
  });
});
