import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { MappingToken } from '@actions/workflow-parser/templates/tokens/mapping-token';
import { loadWorkflow } from '../parser/index.js';
import { evaluateJobIf } from './if-conditions.js';
import { evaluateTemplate, evaluateTemplateValue } from './evaluate-template.js';
import { TemplateEvaluationError } from './template-errors.js';

// The tokens the parser module hands out carry their schema definitions: evaluation needs no
// field name, and errors point into the file through the parser's file table.
test('evaluates the token tree loadWorkflow returns', async () => {
  const content = [
    'on: push',
    'jobs:',
    '  build:',
    "    if: github.ref == 'refs/heads/main'",
    '    runs-on: ${{ matrix.os }}',
    '    env:',
    '      LABEL: build-${{ matrix.node }}',
    '      BROKEN: ${{ fromJSON(matrix.json) }}',
    '    steps:',
    '      - run: echo ${{ github.sha }}',
  ].join('\n');
  const loaded = await loadWorkflow({ name: '.github/workflows/ci.yml', content });
  assert.deepEqual(loaded.errors, []);
  const build = ((loaded.tokens as MappingToken).find('jobs') as MappingToken).find('build') as MappingToken;
  const matrix = { os: 'ubuntu-latest', node: 20, json: '{"a":1}' };
  const { fileTable } = loaded;

  assert.equal(evaluateTemplateValue(build.find('runs-on')!, { matrix }, { fileTable }), 'ubuntu-latest');
  assert.deepEqual(evaluateTemplateValue(build.find('steps')!, { github: { sha: 'abc' } }, { fileTable }), [{ run: 'echo abc' }]);
  assert.equal(evaluateJobIf(build.find('if'), { github: { ref: 'refs/heads/main' } }, { needs: {}, fileTable }), true);
  assert.throws(
    () => evaluateTemplate(build.find('env')!, { matrix }, { fileTable }),
    (error: unknown) =>
      error instanceof TemplateEvaluationError &&
      error.message === 'The template is not valid. .github/workflows/ci.yml (Line: 8, Col: 15): A mapping was not expected',
  );
});
