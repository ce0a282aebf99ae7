import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  BasicExpressionToken,
  BooleanToken,
  InsertExpressionToken,
  MappingToken,
  NullToken,
  NumberToken,
  SequenceToken,
  StringToken,
} from '@actions/workflow-parser/templates/tokens/index';
import type { TokenRange } from '@actions/workflow-parser/templates/tokens/token-range';
import { TokenType, decodeTemplateToken, encodeTemplateToken } from '../../protocol/index.js';
import { loadWorkflow } from '../parser/index.js';
import { toProtocolScalar, toProtocolToken } from './protocol-token.js';

const at = (line: number, column: number): TokenRange => ({ start: { line, column }, end: { line, column: column + 1 } });

test('literals keep their value, kind and position', () => {
  assert.deepEqual(toProtocolToken(new StringToken(1, at(3, 7), 'echo hi', undefined)), {
    type: TokenType.String,
    value: 'echo hi',
    file: 1,
    line: 3,
    col: 7,
  });
  assert.deepEqual(toProtocolToken(new BooleanToken(2, at(4, 28), true, undefined)), { type: TokenType.Boolean, value: true, file: 2, line: 4, col: 28 });
  assert.deepEqual(toProtocolToken(new NumberToken(1, at(5, 26), 1.9, undefined)), { type: TokenType.Number, value: 1.9, file: 1, line: 5, col: 26 });
  assert.deepEqual(toProtocolToken(new NullToken(undefined, undefined, undefined)), { type: TokenType.Null });
});

test('a token without a place gets no position members at all', () => {
  const token = toProtocolToken(new StringToken(undefined, undefined, 'x', undefined));
  assert.deepEqual(Object.keys(token).sort(), ['type', 'value']);
  // ... so the github style writes it as an object without file/line/col.
  assert.deepEqual(encodeTemplateToken(token, { style: 'github' }), { type: 0, lit: 'x' });
});

test('expressions keep their text without ${{ }}; insert stays a directive', () => {
  const expression = new BasicExpressionToken(1, at(9, 14), 'matrix.directory', undefined, undefined, undefined);
  assert.deepEqual(toProtocolToken(expression), { type: TokenType.BasicExpression, expression: 'matrix.directory', file: 1, line: 9, col: 14 });
  assert.deepEqual(toProtocolToken(new InsertExpressionToken(1, at(2, 3), undefined)), { type: TokenType.InsertExpression, directive: 'insert', file: 1, line: 2, col: 3 });
});

test('sequences and mappings convert item by item, in order, keys as scalars', () => {
  const mapping = new MappingToken(1, at(10, 5), undefined);
  mapping.add(new StringToken(1, at(10, 5), 'ports', undefined), sequenceOf(['80:80', '443']));
  mapping.add(new InsertExpressionToken(1, at(11, 5), undefined), new BasicExpressionToken(1, at(11, 20), 'fromJSON(x)', undefined, undefined, undefined));
  const converted = toProtocolToken(mapping);
  assert.ok(converted.type === TokenType.Mapping);
  assert.deepEqual(
    converted.entries.map((entry) => [entry.key.type, entry.value.type]),
    [
      [TokenType.String, TokenType.Sequence],
      [TokenType.InsertExpression, TokenType.BasicExpression],
    ],
  );
  const ports = converted.entries[0]?.value;
  assert.ok(ports?.type === TokenType.Sequence);
  assert.deepEqual(ports.items, [
    { type: TokenType.String, value: '80:80', file: 1, line: 12, col: 9 },
    { type: TokenType.String, value: '443', file: 1, line: 12, col: 9 },
  ]);
});

test('a non-scalar cannot be a scalar', () => {
  assert.throws(() => toProtocolScalar(sequenceOf([])), TypeError);
  assert.equal(toProtocolScalar(new StringToken(undefined, undefined, 'k', undefined)).type, TokenType.String);
});

test('tokens of a loaded workflow convert with the file table positions and round-trip the codec', async () => {
  const content = [
    'on: push',
    'jobs:',
    '  build:',
    '    runs-on: ubuntu-latest',
    '    steps:',
    '      - name: Build ${{ matrix.os }}',
    '        env:',
    '          FLAG: true',
    '          LIMIT: 3',
    '          WHO: ${{ inputs.who }}',
    '        run: make',
  ].join('\n');
  const loaded = await loadWorkflow({ name: '.github/workflows/ci.yml', content });
  assert.deepEqual(loaded.errors, []);
  const job = loaded.template?.jobs[0];
  assert.ok(job !== undefined && job.type === 'job');
  const step = job.steps[0] as unknown as { name?: StringToken; env?: MappingToken };
  assert.ok(step.name !== undefined && step.env !== undefined);

  assert.deepEqual(toProtocolToken(step.name), {
    type: TokenType.BasicExpression,
    expression: "format('Build {0}', matrix.os)",
    file: 1,
    line: 6,
    col: 15,
  });
  const env = toProtocolToken(step.env);
  const wire = encodeTemplateToken(env, { style: 'github' });
  assert.deepEqual(wire, {
    type: 2,
    file: 1,
    line: 8,
    col: 11,
    map: [
      { Key: { type: 0, file: 1, line: 8, col: 11, lit: 'FLAG' }, Value: { type: 0, file: 1, line: 8, col: 17, lit: 'true' } },
      { Key: { type: 0, file: 1, line: 9, col: 11, lit: 'LIMIT' }, Value: { type: 0, file: 1, line: 9, col: 18, lit: '3' } },
      { Key: { type: 0, file: 1, line: 10, col: 11, lit: 'WHO' }, Value: { type: 3, file: 1, line: 10, col: 16, expr: 'inputs.who' } },
    ],
  });
  assert.deepEqual(decodeTemplateToken(wire), env);
});

function sequenceOf(items: readonly string[]): SequenceToken {
  const sequence = new SequenceToken(1, at(12, 9), undefined);
  for (const item of items) sequence.add(new StringToken(1, at(12, 9), item, undefined));
  return sequence;
}
