import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { allowedNames, ANY_NAMES, STEP_IF_NAMES, STEP_NAMES } from './allowed-names.js';
import { prepareContexts } from './contexts.js';
import { ExpressionError } from './errors.js';
import { evaluateExpression, evaluateExpressionAsync } from './evaluate.js';
import type { HashFilesOptions, HashFilesPort } from './hash-files.js';

function failure(run: () => unknown): ExpressionError {
  try {
    run();
  } catch (error) {
    assert.ok(error instanceof ExpressionError, `not an ExpressionError: ${String(error)}`);
    return error;
  }
  assert.fail('expected an ExpressionError');
}

describe('allowed names', () => {
  test('a context outside the field\'s list is an unrecognized named-value', () => {
    const error = failure(() => evaluateExpression("github.ref == secrets.TOKEN", { github: {}, secrets: {} }, { allowed: allowedNames(['github']) }));
    assert.equal(error.kind, 'parsing');
    assert.equal(error.message, "Unrecognized named-value: 'secrets'. Located at position 15 within expression: github.ref == secrets.TOKEN");
  });

  test('by default the given contexts are the allowed ones', () => {
    assert.equal(evaluateExpression('GitHub.REF', { github: { ref: 'main' } }), 'main');
    assert.match(failure(() => evaluateExpression('env.X', { github: {} })).message, /^Unrecognized named-value: 'env'/);
  });

  test('an allowed context that was not given reads as null', () => {
    assert.equal(evaluateExpression('env.X', {}, { allowed: STEP_NAMES }), null);
  });

  test('functions outside the list are unrecognized, built-ins always allowed', () => {
    assert.match(
      failure(() => evaluateExpression("hashFiles('x')", {}, { allowed: allowedNames(['github']) })).message,
      /^Unrecognized function: 'hashFiles'. Located at position 1/,
    );
    assert.equal(evaluateExpression("startsWith('abc', 'A')", {}, { allowed: allowedNames([]) }), true);
  });

  test('the schema notation gives argument counts; bad entries are refused', () => {
    const names = allowedNames(['github', 'hashFiles(1,255)', 'success(0,MAX)']);
    assert.deepEqual(names.contexts, ['github']);
    assert.deepEqual(names.functions.map((f) => [f.name, f.minArgs, f.maxArgs]), [
      ['hashFiles', 1, 255],
      ['success', 0, Number.MAX_SAFE_INTEGER],
    ]);
    assert.throws(() => allowedNames(['not a name']), TypeError);
  });

  test('any names: a syntax check only', () => {
    const error = failure(() => evaluateExpression('nosuch(1)', {}, { allowed: ANY_NAMES }));
    assert.equal(error.kind, 'evaluation');
    assert.equal(error.code, 'function_unavailable');
  });
});

describe('contexts', () => {
  test('keys are case-insensitive and any key works, constructor and __proto__ included', () => {
    const contexts = { inputs: JSON.parse('{"constructor": "c", "__proto__": "p", "toString": "t"}') as Record<string, string> };
    assert.equal(evaluateExpression("format('{0}{1}{2}', inputs.constructor, inputs.__proto__, inputs.TOSTRING)", contexts), 'cpt');
    assert.equal(evaluateExpression("fromJSON('{\"constructor\": 1}').constructor", {}), 1);
  });

  test('results are plain data', () => {
    const contexts = { matrix: { os: ['linux', 'mac'], include: [{ n: 1 }, { n: 2 }] } };
    assert.deepEqual(evaluateExpression('matrix', contexts), contexts.matrix);
    assert.deepEqual(evaluateExpression('matrix.include.*.n', contexts), [1, 2]);
    assert.deepEqual(evaluateExpression('matrix.os[5]', contexts), null);
  });

  test('prepared contexts are converted once and reused', () => {
    const prepared = prepareContexts({ github: { event: { number: 7 } } });
    assert.equal(evaluateExpression('github.event.number', prepared), 7);
    assert.equal(prepared.get('GITHUB'), prepared.get('github'));
    assert.equal(evaluateExpression('github.event.number == 7', prepared), true);
  });

  test('non-JSON context values are refused', () => {
    const contexts = { bad: { f: (() => 1) as unknown as string } };
    assert.throws(() => evaluateExpression('toJSON(bad)', contexts), TypeError);
  });
});

describe('evaluation errors', () => {
  test('function errors keep the runner\'s text', () => {
    const error = failure(() => evaluateExpression("format('{0}')", {}));
    assert.equal(error.kind, 'evaluation');
    assert.equal(error.code, 'function_failed');
    assert.equal(error.message, 'The following format string references more arguments than were supplied: {0}');
  });

  test('an error inside an index is not wrapped in the package\'s index message', () => {
    const error = failure(() => evaluateExpression("a[format('{')]", { a: {} }));
    assert.equal(error.message, 'The following format string is invalid: {');
  });

  test('fromJSON of nothing or of broken JSON', () => {
    assert.match(failure(() => evaluateExpression("fromJSON('')", {})).message, /^Error parsing fromJson/);
    assert.match(failure(() => evaluateExpression("fromJSON('{')", {})).message, /^Error parsing fromJson/);
  });

  test('the memory budget is the runner\'s 1 MiB by default, and configurable', () => {
    const contexts = { s: 'x'.repeat(100_000) };
    const big = `format('${'{0}'.repeat(6)}', s)`; // 600k chars, 1.2 MB
    const error = failure(() => evaluateExpression(big, contexts));
    assert.equal(error.code, 'max_memory');
    assert.equal(error.message, `The maximum allowed memory size was exceeded while evaluating the following expression: ${big}`);
    assert.equal((evaluateExpression(big, contexts, { maxMemoryBytes: 2_000_000 }) as string).length, 600_000);
    assert.equal((evaluateExpression(`format('${'{0}'.repeat(5)}', s)`, contexts) as string).length, 500_000);
  });
});

describe('hashFiles', () => {
  const calls: [readonly string[], HashFilesOptions][] = [];
  const port: HashFilesPort = {
    hash(patterns, options) {
      calls.push([patterns, options]);
      return patterns.includes('none') ? '' : `hash(${patterns.join(',')})`;
    },
  };

  test('patterns reach the port as strings, with the symbolic-link option read off', () => {
    calls.length = 0;
    assert.equal(evaluateExpression("hashFiles('**/*.lock', 1)", {}, { hashFiles: port }), 'hash(**/*.lock,1)');
    assert.equal(evaluateExpression("hashFiles('--follow-symbolic-links', 'a')", {}, { hashFiles: port }), 'hash(a)');
    assert.deepEqual(calls, [
      [['**/*.lock', '1'], { followSymbolicLinks: false }],
      [['a'], { followSymbolicLinks: true }],
    ]);
  });

  test('an unknown option is refused with the runner\'s text', () => {
    const error = failure(() => evaluateExpression("hashFiles('--nope', 'a')", {}, { hashFiles: port }));
    assert.equal(error.message, "Invalid glob option --nope, avaliable option: '--follow-symbolic-links'.");
  });

  test('it is allowed in step if: and step fields', () => {
    const status = { kind: 'step', jobStatus: 'success' } as const;
    assert.equal(evaluateExpression("hashFiles('none') == ''", {}, { hashFiles: port, status, allowed: STEP_IF_NAMES }), true);
  });

  test('an asynchronous port needs the asynchronous evaluation', async () => {
    const asyncPort: HashFilesPort = { hash: async (patterns) => (patterns[0] === 'empty' ? '' : `h-${patterns[0] ?? ''}`) };
    assert.throws(() => evaluateExpression("hashFiles('a')", {}, { hashFiles: asyncPort }), /evaluateExpressionAsync/);
    assert.equal(await evaluateExpressionAsync("hashFiles('a')", {}, { hashFiles: asyncPort }), 'h-a');
    // The second hash is only asked for once the first one is known.
    const text = "hashFiles('empty') == '' && format('{0}/{1}', hashFiles('b'), fromJSON(format('\"{0}\"', hashFiles('c'))))";
    assert.equal(await evaluateExpressionAsync(text, {}, { hashFiles: asyncPort }), 'h-b/h-c');
  });

  test('a failing port is an evaluation error', async () => {
    const failing: HashFilesPort = { hash: async () => Promise.reject(new Error("hashFiles('x') failed")) };
    await assert.rejects(evaluateExpressionAsync("hashFiles('x')", {}, { hashFiles: failing }), (error: unknown) =>
      error instanceof ExpressionError && error.kind === 'evaluation' && error.message === "hashFiles('x') failed",
    );
  });
});
