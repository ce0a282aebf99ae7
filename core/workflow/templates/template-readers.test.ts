import assert from 'node:assert/strict';
import { test } from 'node:test';
import { MappingToken, NumberToken, StringToken } from '@actions/workflow-parser/templates/tokens/index';
import { readBoolean, readNumber, readString, readStringMap } from './template-readers.js';
import { TemplateEvaluationError } from './template-errors.js';

const at = { start: { line: 3, column: 7 }, end: { line: 3, column: 9 } };

test('reading the wrong type fails with the runner wording and the token position', () => {
  const mapping = new MappingToken(1, at, undefined);
  assert.throws(
    () => readString(mapping, 'step name', { fileTable: ['ci.yml'] }),
    (error: unknown) =>
      error instanceof TemplateEvaluationError &&
      error.message ===
        "The template is not valid. ci.yml (Line: 3, Col: 7): Unexpected type 'MappingToken' encountered while reading 'step name'. The type 'StringToken' was expected.",
  );
  assert.throws(() => readBoolean(new StringToken(undefined, undefined, 'true', undefined), 'step continue-on-error'), /The type 'BooleanToken' was expected/);
});

test('numbers, strings and string maps read as they are', () => {
  assert.equal(readNumber(new NumberToken(undefined, undefined, 5, undefined), 'step timeout-minutes'), 5);
  const env = new MappingToken(undefined, undefined, undefined);
  env.add(new StringToken(undefined, undefined, 'A', undefined), new StringToken(undefined, undefined, 'a', undefined));
  assert.deepEqual(readStringMap(env, 'environment'), { A: 'a' });
  env.add(new StringToken(undefined, undefined, 'B', undefined), new NumberToken(undefined, undefined, 1, undefined));
  assert.throws(() => readStringMap(env, 'environment'), /while reading 'environment value'/);
});
