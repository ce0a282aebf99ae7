import { strict as assert } from 'node:assert';
import { Buffer } from 'node:buffer';
import { test } from 'node:test';
import { SecretMasker } from './index.js';
import { DIRECT_SEARCH_LIMIT } from './secret-masker.js';
import { MultiStringMatcher, searchRanges } from './string-matcher.js';
import { jsonStringEscape, uriDataEscape, xmlDataEscape } from './value-encoders.js';

function masker(...values: string[]): SecretMasker {
  const m = new SecretMasker();
  for (const v of values) m.add(v);
  return m;
}

test('every occurrence is replaced with ***; text without secrets is returned as is', () => {
  const m = masker('hunter2');
  assert.equal(m.mask('pw=hunter2; again hunter2!'), 'pw=***; again ***!');
  assert.equal(m.mask('nothing here'), 'nothing here');
  assert.equal(m.mask(''), '');
  assert.equal(m.mask('HUNTER2'), 'HUNTER2', 'matching is case-sensitive');
});

test('empty and white-space-only values are ignored', () => {
  const m = masker('', '   ', '\n\t');
  assert.equal(m.size, 0);
  assert.equal(m.mask('a b  c'), 'a b  c');
});

test('a multi-line secret is masked whole and line by line, lines trimmed', () => {
  const m = masker('first-line\n  second-line  \r\nthird');
  assert.equal(m.mask('first-line\n  second-line  \r\nthird'), '***');
  assert.equal(m.mask('> first-line'), '> ***');
  assert.equal(m.mask('  second-line  '), '  ***  ');
  assert.equal(m.mask('third'), '***');
});

test('addSecret trims the value first, as the worker does for secret variables', () => {
  const m = new SecretMasker();
  m.addSecret('  padded-secret \n');
  assert.equal(m.mask('x padded-secret y'), 'x *** y');
});

test('overlapping and touching secrets leave no fragments', () => {
  const m = masker('abcdef', 'defghi', 'xyz');
  assert.equal(m.mask('__abcdefghi__'), '__***__');
  assert.equal(m.mask('abcdefxyz'), '***', 'touching ranges merge into one mask');
  assert.equal(m.mask('abcdef-xyz'), '***-***');
  const nested = masker('secret', 'my-secret-value');
  assert.equal(nested.mask('[my-secret-value]'), '[***]');
  assert.equal(nested.mask('[secret]'), '[***]');
  const repeated = masker('aa');
  assert.equal(repeated.mask('aaa b aaaa'), '*** b ***');
});

test('a long secret reaching back over earlier matches is folded into one range', () => {
  const matcher = new MultiStringMatcher(['b', 'd', 'abcde']);
  assert.deepEqual(matcher.ranges('xabcdex'), [[1, 6]]);
  assert.deepEqual(matcher.ranges('b.d'), [
    [0, 1],
    [2, 3],
  ]);
});

test('the per-pattern search finds the same ranges as the automaton', () => {
  // A small alphabet makes overlaps, shared prefixes and touching matches common.
  let seed = 7;
  const random = (n: number) => {
    seed = (seed * 1103515245 + 12345) % 2147483648;
    return seed % n;
  };
  const word = (max: number) => Array.from({ length: 1 + random(max) }, () => 'abc'[random(3)]).join('');
  for (let round = 0; round < 300; round++) {
    const patterns = Array.from({ length: 1 + random(6) }, () => word(4));
    const text = word(40);
    assert.deepEqual(searchRanges(text, patterns), new MultiStringMatcher(patterns).ranges(text), `${JSON.stringify(patterns)} in ${text}`);
  }
});

test('masking is the same with few secrets (searched one by one) and many (the automaton)', () => {
  const few = masker('b', 'd', 'abcde');
  const many = masker('b', 'd', 'abcde', ...Array.from({ length: DIRECT_SEARCH_LIMIT }, (_, i) => `filler-${i}-zz`));
  assert.ok(few.size <= DIRECT_SEARCH_LIMIT && many.size > DIRECT_SEARCH_LIMIT);
  for (const text of ['xabcdex', 'b.d', 'bd', 'no secrets', 'abcdeabcde b']) assert.equal(few.mask(text), many.mask(text));
  assert.equal(many.mask('filler-3-zz or b'), '*** or ***');
});

test('secrets inside URLs and JSON are masked, including their encoded forms', () => {
  const m = masker('p@ss "word"/&');
  assert.equal(m.mask('https://user:p%40ss%20%22word%22%2F%26@example.com/'), 'https://user:***@example.com/');
  assert.equal(m.mask('{"password":"p@ss \\"word\\"/&"}'), '{"password":"***"}');
  assert.equal(m.mask('<pw>p@ss &quot;word&quot;/&amp;</pw>'), '<pw>***</pw>');
  assert.equal(m.mask('"p@ss \\"word\\"/&"'), '"***"');
});

test('base64 of the secret and of the secret shifted by one and two bytes is masked', () => {
  const secret = 'user:tops3cret';
  const m = masker(secret);
  const b64 = (s: string | Buffer): string => Buffer.from(s).toString('base64');
  assert.equal(m.mask(`Authorization: Basic ${b64(secret)}`), 'Authorization: Basic ***');
  assert.equal(m.mask(b64(Buffer.from(secret).subarray(1))), '***');
  assert.equal(m.mask(b64(Buffer.from(secret).subarray(2))), '***');
});

test('single quotes doubled (expressions) and double quotes escaped (command lines) are masked', () => {
  const m = masker("it's \"quoted\"");
  assert.equal(m.mask("echo 'it''s \"quoted\"'"), "echo '***'");
  assert.equal(m.mask('run "it\'s \\"quoted\\""'), 'run "***"');
});

test('a quoted secret longer than 8 characters is also masked without its quotes', () => {
  const m = masker('"long-secret"');
  assert.equal(m.mask('value: long-secret'), 'value: ***');
  const short = masker('"short"');
  assert.equal(short.mask('short'), 'short');
});

test('PowerShell splits around & are masked in parts of six characters or more', () => {
  const m = masker('part-one&part-two&tail12');
  assert.equal(m.mask("'part-one&part-two&' is not recognized"), "'***' is not recognized");
  assert.equal(m.mask('tail12 was printed alone'), '*** was printed alone');
});

test('value encoders match .NET for the characters where JavaScript differs', () => {
  assert.equal(uriDataEscape("a!b'c(d)e*f~g"), 'a%21b%27c%28d%29e%2Af~g');
  assert.equal(uriDataEscape('é'), '%C3%A9');
  assert.equal(jsonStringEscape('a"b\\c\n\u0001\u2028'), 'a\\"b\\\\c\\n\\u0001\\u2028');
  assert.equal(xmlDataEscape(`<a href="x">'&'</a>`), '&lt;a href=&quot;x&quot;&gt;&apos;&amp;&apos;&lt;/a&gt;');
});

test('adding secrets later applies to later texts; many secrets and long lines stay linear', () => {
  const m = new SecretMasker();
  const secrets = Array.from({ length: 2000 }, (_, i) => `secret-${i}-${'x'.repeat(i % 17)}-end`);
  for (const s of secrets) m.add(s);
  const line = `${'filler '.repeat(20000)}${secrets[1234]} tail`;
  assert.equal(m.mask(line), `${'filler '.repeat(20000)}*** tail`);
  m.add('filler');
  assert.equal(m.mask('filler x'), '*** x');
});
