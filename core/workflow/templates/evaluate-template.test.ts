import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { MappingToken } from '@actions/workflow-parser/templates/tokens/mapping-token';
import type { TemplateToken } from '@actions/workflow-parser/templates/tokens/template-token';
import { BasicExpressionToken, MappingToken as Mapping, StringToken } from '@actions/workflow-parser/templates/tokens/index';
import { TokenType } from '@actions/workflow-parser/templates/tokens/types';
import type { HashFilesPort } from '../expressions/index.js';
import { evaluateTemplate, evaluateTemplateAsync, evaluateTemplateValue } from './evaluate-template.js';
import { readTemplateTokens } from './read-template.js';
import { TemplateEvaluationError } from './template-errors.js';

const FILE = '.github/workflows/ci.yml';

/** The job `build`'s value at `key`, read by the parser's reader from a workflow around `job`. */
function jobField(job: string, key: string): { token: TemplateToken; fileTable: readonly string[] } {
  const yaml = `on: push\njobs:\n  build:\n${job.replace(/^/gm, '    ')}\n`;
  const read = readTemplateTokens(yaml, { fileName: FILE });
  assert.deepEqual(read.errors.map((e) => e.text), []);
  const jobs = (read.token as MappingToken).find('jobs') as MappingToken;
  const token = (jobs.find('build') as MappingToken).find(key);
  assert.ok(token, `no ${key}`);
  return { token, fileTable: read.fileTable };
}

function failure(run: () => unknown): TemplateEvaluationError {
  try {
    run();
  } catch (error) {
    assert.ok(error instanceof TemplateEvaluationError, `not a TemplateEvaluationError: ${String(error)}`);
    return error;
  }
  assert.fail('expected a TemplateEvaluationError');
}

const matrix = { os: 'ubuntu-latest', node: 20, big: 1e20, flag: true };

describe('strings with ${{ }}', () => {
  test('embedded expressions become a format() call and are formatted like the runner', () => {
    const { token } = jobField('runs-on: ubuntu\nenv:\n  A: "node-${{ matrix.node }}-${{ matrix.big }}-${{ matrix.flag }}"', 'env');
    const a = (token as MappingToken).get(0).value;
    assert.equal(a.templateTokenType, TokenType.BasicExpression);
    assert.match((a as BasicExpressionToken).expression, /^format\('node-\{0\}-\{1\}-\{2\}', matrix\.node, matrix\.big, matrix\.flag\)$/);
    assert.deepEqual(evaluateTemplateValue(token, { matrix }), { A: 'node-20-1E+20-true' });
  });

  test('a whole-value expression keeps its type where the field allows it', () => {
    const { token } = jobField('runs-on: ubuntu\ntimeout-minutes: ${{ matrix.node }}', 'timeout-minutes');
    const result = evaluateTemplate(token, { matrix });
    assert.equal(result.templateTokenType, TokenType.Number);
    assert.equal(evaluateTemplateValue(token, { matrix }), 20);
  });

  test('a number or boolean where the field wants a string becomes its runner text', () => {
    const { token } = jobField('runs-on: ubuntu\nenv:\n  BIG: ${{ matrix.big }}\n  FLAG: ${{ matrix.flag }}\n  NONE: ${{ null }}', 'env');
    assert.deepEqual(evaluateTemplateValue(token, { matrix }), { BIG: '1E+20', FLAG: 'true', NONE: '' });
  });

  test('an object where the field wants a string is an error at the expression', () => {
    const { token, fileTable } = jobField('runs-on: ubuntu\nenv:\n  A: ${{ fromJSON(\'{"x":1}\') }}', 'env');
    const error = failure(() => evaluateTemplate(token, {}, { fileTable }));
    assert.equal(error.message, `The template is not valid. ${FILE} (Line: 6, Col: 10): A mapping was not expected`);
    assert.deepEqual(error.errors.map(({ line, column, file }) => ({ line, column, file })), [{ line: 6, column: 10, file: FILE }]);
  });

  test('fromJSON yields mappings and sequences where the field takes them', () => {
    const { token } = jobField('runs-on: ${{ fromJSON(\'["self-hosted", "linux"]\') }}', 'runs-on');
    assert.deepEqual(evaluateTemplateValue(token, {}), ['self-hosted', 'linux']);
  });
});

describe('allowed contexts', () => {
  test('a context the field does not allow is an unrecognized named-value, placed at the token', () => {
    const token = new BasicExpressionToken(1, { start: { line: 4, column: 14 }, end: { line: 4, column: 34 } }, 'secrets.TOKEN', undefined, undefined, undefined);
    const error = failure(() => evaluateTemplate(token, { secrets: { TOKEN: 'x' } }, { field: 'jobs.<job_id>.runs-on', fileTable: [FILE] }));
    assert.equal(
      error.message,
      `The template is not valid. ${FILE} (Line: 4, Col: 14): Unrecognized named-value: 'secrets'. Located at position 1 within expression: secrets.TOKEN`,
    );
  });

  test('an allowed context that was not given reads as null, as on the runner', () => {
    const { token } = jobField('runs-on: ubuntu\nsteps:\n  - run: echo "${{ steps.x.outputs.y }}${{ env.A }}"', 'steps');
    assert.deepEqual(evaluateTemplateValue(token, {}), [{ run: 'echo ""' }]);
  });

  test('a function the field does not allow is unrecognized', () => {
    const token = new BasicExpressionToken(undefined, undefined, "hashFiles('x')", undefined, undefined, undefined);
    assert.match(failure(() => evaluateTemplate(token, {}, { field: 'jobs.<job_id>.runs-on' })).message, /Unrecognized function: 'hashFiles'/);
  });

  test('without any schema information every given context is allowed', () => {
    const token = new BasicExpressionToken(undefined, undefined, 'format(\'{0}/{1}\', a.b, c)', undefined, undefined, undefined);
    assert.equal(evaluateTemplateValue(token, { a: { b: 1 }, c: 'x' }), '1/x');
  });
});

describe('sequences, keys and insert', () => {
  test('a sequence item whose expression yields an array contributes its items', () => {
    const { token } = jobField('runs-on: [self-hosted, "${{ fromJSON(\'[\\"a\\",\\"b\\"]\') }}", linux]', 'runs-on');
    assert.deepEqual(evaluateTemplateValue(token, {}), ['self-hosted', 'a', 'b', 'linux']);
  });

  test('${{ insert }} merges a mapping produced by an expression', () => {
    const { token } = jobField('runs-on: ubuntu\nenv:\n  A: a\n  ${{ insert }}: ${{ fromJSON(\'{"B":"b","C":3}\') }}\n  D: d', 'env');
    assert.deepEqual(evaluateTemplateValue(token, {}), { A: 'a', B: 'b', C: '3', D: 'd' });
  });

  test('${{ insert }} of a key already there is an error, case-insensitively', () => {
    const { token } = jobField('runs-on: ubuntu\nenv:\n  A: a\n  ${{ insert }}: ${{ fromJSON(\'{"a":"b"}\') }}', 'env');
    assert.match(failure(() => evaluateTemplate(token, {})).message, /'a' is already defined$/);
  });

  test('${{ insert }} of something else than a mapping is an error', () => {
    const { token } = jobField('runs-on: ubuntu\nenv:\n  ${{ insert }}: ${{ \'x\' }}', 'env');
    assert.match(failure(() => evaluateTemplate(token, {})).message, /Expected a mapping$/);
  });

  test('an expression key becomes the text of its result', () => {
    const { token } = jobField('runs-on: ubuntu\nenv:\n  ${{ matrix.os }}: 1\n  N_${{ matrix.node }}: 2', 'env');
    assert.deepEqual(evaluateTemplateValue(token, { matrix }), { 'ubuntu-latest': '1', N_20: '2' });
  });

  test('a mapping from fromJSON is checked like a written one', () => {
    const token = new BasicExpressionToken(undefined, undefined, 'fromJSON(\'{"image":"node","nope":1}\')', undefined, undefined, undefined);
    assert.match(failure(() => evaluateTemplate(token, {}, { field: 'jobs.<job_id>.container' })).message, /Unexpected value 'nope'$/);
  });

  test('a required property missing from an evaluated mapping is reported', () => {
    const token = new BasicExpressionToken(undefined, undefined, 'fromJSON(\'{"cancel-in-progress":true}\')', undefined, undefined, undefined);
    assert.equal(
      failure(() => evaluateTemplate(token, {}, { field: 'jobs.<job_id>.concurrency' })).message,
      'The template is not valid. Required property is missing: group',
    );
  });

  test('every problem of one evaluation is reported, in order', () => {
    const { token } = jobField('runs-on: ubuntu\nenv:\n  A: ${{ fromJSON(\'[1]\') }}\n  B: ${{ fromJSON(\'{}\') }}', 'env');
    const error = failure(() => evaluateTemplate(token, {}));
    assert.deepEqual(error.errors.map((e) => e.message), ['A sequence was not expected', 'A mapping was not expected']);
  });
});

describe('partial evaluation', () => {
  test('leaves the positions whose contexts are not all given, evaluates the others', () => {
    const { token } = jobField('runs-on: ${{ matrix.os }}\nenv:\n  A: ${{ github.sha }}', 'env');
    const github = { sha: 'abc' };
    // job env allows secrets too: not given, so it waits for the runner.
    const waiting = evaluateTemplate(token, { github, matrix }, { partial: true }) as MappingToken;
    assert.equal(waiting.get(0).value.templateTokenType, TokenType.BasicExpression);
    assert.match(
      failure(() => evaluateTemplateValue(token, { github, matrix }, { partial: true })).message,
      /Unexpected type 'BasicExpressionToken' encountered while reading 'value'\.$/,
    );
    const all = { github, matrix, needs: {}, strategy: {}, inputs: {}, vars: {}, secrets: {} };
    assert.deepEqual(evaluateTemplateValue(token, all, { partial: true }), { A: 'abc' });
  });
});

describe('hashFiles', () => {
  test('a promise-answering port works through the async variant', async () => {
    const { token } = jobField('runs-on: ubuntu\nsteps:\n  - run: echo ${{ hashFiles(\'**/lock\') }}', 'steps');
    const asked: string[][] = [];
    const port: HashFilesPort = {
      hash: (patterns) => {
        asked.push([...patterns]);
        return Promise.resolve('f00d');
      },
    };
    const result = await evaluateTemplateAsync(token, {}, { hashFiles: port });
    assert.deepEqual(evaluateTemplateValue(result, {}), [{ run: 'echo f00d' }]);
    assert.deepEqual(asked, [['**/lock']]);
  });
});

describe('directives', () => {
  test('${{ insert }} outside a mapping key is not supported', () => {
    const mapping = new Mapping(undefined, undefined, undefined);
    mapping.add(new StringToken(undefined, undefined, 'A', undefined), new StringToken(undefined, undefined, 'a', undefined));
    assert.deepEqual(evaluateTemplateValue(mapping, {}), { A: 'a' });
    const read = readTemplateTokens('on: push\njobs:\n  b:\n    runs-on: x\n    steps:\n      - run: ${{ insert }}\n', { fileName: FILE });
    // The parser's reader already refuses it where the schema does not allow a mapping.
    assert.ok(read.errors.length > 0);
  });
});
