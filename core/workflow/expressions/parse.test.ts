import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { allowedNames } from './allowed-names.js';
import { ExpressionError } from './errors.js';
import { evaluateExpression } from './evaluate.js';
import { MAX_EXPRESSION_LENGTH } from './limits.js';
import { createParseCache, parseExpression } from './parse.js';

function parseFailure(text: string, names = allowedNames(['foo', 'github'])): ExpressionError {
  try {
    parseExpression(text, { allowed: names, cache: createParseCache() });
  } catch (error) {
    assert.ok(error instanceof ExpressionError, `not an ExpressionError: ${String(error)}`);
    return error;
  }
  assert.fail(`expected ${JSON.stringify(text)} not to parse`);
}

describe('parse cache', () => {
  test('the same text is parsed once and served from the cache', () => {
    const cache = createParseCache();
    const first = parseExpression("github.ref == 'main'", { cache });
    const second = parseExpression("github.ref == 'main'", { cache });
    assert.equal(second, first);
    assert.equal(cache.misses, 1);
    assert.equal(cache.hits, 1);
  });

  test('the least recently used entry is evicted at capacity', () => {
    const cache = createParseCache(2);
    const a = parseExpression('1', { cache });
    parseExpression('2', { cache });
    parseExpression('1', { cache }); // '1' is now the most recent
    parseExpression('3', { cache }); // evicts '2'
    assert.equal(cache.size, 2);
    assert.equal(parseExpression('1', { cache }), a);
    const misses = cache.misses;
    parseExpression('2', { cache });
    assert.equal(cache.misses, misses + 1);
  });

  test('entries are kept apart by the allowed names they were checked against', () => {
    const cache = createParseCache();
    assert.ok(parseExpression('foo', { cache, allowed: allowedNames(['foo']) }));
    assert.throws(() => parseExpression('foo', { cache, allowed: allowedNames(['bar']) }), /Unrecognized named-value: 'foo'/);
  });

  test('the cache serves evaluations', () => {
    const cache = createParseCache();
    for (let i = 0; i < 3; i++) assert.equal(evaluateExpression('a.b', { a: { b: i } }, { cache }), i);
    assert.equal(cache.misses, 1);
    assert.equal(cache.hits, 2);
  });
});

describe('limits', () => {
  test(`an expression of ${MAX_EXPRESSION_LENGTH} characters parses, one more does not`, () => {
    const longest = `'${'a'.repeat(MAX_EXPRESSION_LENGTH - 2)}'`;
    assert.equal(evaluateExpression(longest, {}), 'a'.repeat(MAX_EXPRESSION_LENGTH - 2));
    const error = parseFailure(`${longest} `);
    assert.equal(error.code, 'max_length');
    assert.equal(error.message, 'Exceeded max expression length 21000');
  });

  test('nesting deeper than 50 is refused with the runner\'s text', () => {
    assert.equal(evaluateExpression(`${'!'.repeat(49)}false`, {}), true);
    const error = parseFailure(`${'!'.repeat(50)}false`);
    assert.equal(error.code, 'max_depth');
    assert.equal(error.kind, 'parsing');
    assert.equal(error.message, 'Exceeded max expression depth 50');
  });
});

describe('errors in the runner\'s words', () => {
  test('positions count from the start of the whole expression, also after multi-line strings', () => {
    const text = "format('a\nb') == 'x'\n && nosuch";
    const error = parseFailure(text);
    assert.equal(error.code, 'unrecognized_named_value');
    assert.equal(error.position, text.indexOf('nosuch') + 1);
    assert.equal(error.message, `Unrecognized named-value: 'nosuch'. Located at position ${text.indexOf('nosuch') + 1} within expression: ${text}`);
  });

  test('a string token is shown as written, quotes included', () => {
    assert.equal(
      parseFailure("'a' 'b'").message,
      "Unexpected symbol: ''b''. Located at position 5 within expression: 'a' 'b'",
    );
  });

  test('running out of input is an unexpected end, not a symbol EOF', () => {
    const error = parseFailure('foo[1');
    assert.equal(error.code, 'unexpected_end');
    assert.equal(error.message, "Unexpected end of expression: '1'. Located at position 5 within expression: foo[1");
  });

  test('lexing errors keep their kind and position', () => {
    const error = parseFailure('1 @abc 2');
    assert.equal(error.kind, 'lexing');
    assert.equal(error.position, 3);
  });

  test('number literals the runner rejects are lexing errors', () => {
    for (const literal of ['0b101', '0X1F', '0x100000000']) {
      const error = parseFailure(`1 == ${literal}`);
      assert.equal(error.kind, 'lexing');
      assert.equal(error.message, `Unexpected symbol: '${literal}'. Located at position 6 within expression: 1 == ${literal}`);
    }
    assert.equal(evaluateExpression('0xffffffff', {}), -1);
  });

  test('wrong argument counts name the function', () => {
    const error = parseFailure('join()');
    assert.equal(error.code, 'too_few_parameters');
    assert.equal(error.message, "Too few parameters supplied: 'join'. Located at position 1 within expression: join()");
  });
});

describe('literals', () => {
  test("every '' in a string literal is an escaped quote", () => {
    assert.equal(evaluateExpression("'it''s ''quoted'''", {}), "it's 'quoted'");
  });

  test('an empty or blank expression evaluates to null', () => {
    assert.equal(parseExpression('  ').isEmpty, true);
    assert.equal(evaluateExpression('', {}), null);
  });
});
