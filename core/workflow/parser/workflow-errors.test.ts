import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { formatWorkflowError, loadWorkflow } from './index.js';
import type { LoadWorkflowOptions, WorkflowError } from './index.js';

const FILE = '.github/workflows/ci.yml';

async function errorsOf(content: string, options: LoadWorkflowOptions = {}): Promise<readonly WorkflowError[]> {
  const result = await loadWorkflow({ name: FILE, content }, options);
  assert.equal(result.template, undefined, 'a workflow with errors has no template');
  return result.errors;
}

describe('workflow errors', () => {
  it('point at the offending key with GitHub wording, and format as file:line:col', async () => {
    const [error, ...rest] = await errorsOf(['on: push', 'jobs:', '  build:', '    runs-on: linux', '    stepz:', '      - run: echo'].join('\n'));
    assert.deepEqual(rest, []);
    assert.deepEqual(error, {
      file: FILE,
      line: 5,
      column: 5,
      message: "Unexpected value 'stepz'",
      githubMessage: `${FILE} (Line: 5, Col: 5): Unexpected value 'stepz'`,
    });
    assert.equal(formatWorkflowError(error), `${FILE}:5:5: Unexpected value 'stepz'`);
  });

  it('report a bad expression at its value, naming the token and its place in the expression', async () => {
    const errors = await errorsOf(['on: push', 'jobs:', '  build:', '    if: ${{ github.ref == }}', '    runs-on: linux', '    steps:', '      - run: echo'].join('\n'));
    assert.deepEqual(
      errors.map((error) => formatWorkflowError(error)),
      [`${FILE}:4:9: Unexpected end of expression: '=='. Located at position 12 within expression: github.ref ==`],
    );
  });

  it('report each problem once, in document order, up to GitHub’s limit of ten', async () => {
    const steps = Array.from({ length: 12 }, (_, i) => [`      - id: Same`, `        run: echo ${i}`]).flat();
    const errors = await errorsOf(['on: push', 'jobs:', '  build:', '    runs-on: linux', '    steps:', ...steps].join('\n'));
    assert.equal(errors.length, 10);
    assert.deepEqual(
      errors.slice(0, 2).map((error) => [error.line, error.column]),
      [[8, 13], [10, 13]],
    );
    assert.match(errors[0]?.message ?? '', /The identifier 'Same' may not be used more than once/);
  });

  it('place YAML syntax errors at their line and column, though GitHub prints only the file', async () => {
    const [error] = await errorsOf('on: push\njobs:\n  build: [\n');
    assert.equal(error?.file, FILE);
    assert.equal(typeof error?.line, 'number');
    assert.ok(error?.githubMessage.startsWith(`${FILE}: `), error?.githubMessage);
    assert.match(formatWorkflowError(error as WorkflowError), /^\.github\/workflows\/ci\.yml:\d+:\d+: /);
  });

  it('name only the file for file-wide limits', async () => {
    const [error] = await errorsOf('on: push\njobs:\n  build:\n    runs-on: linux\n    steps:\n      - run: echo\n', { maxFileSize: 10 });
    assert.deepEqual(error, {
      file: FILE,
      message: 'The maximum file size of 10 characters has been exceeded',
      githubMessage: `${FILE}: The maximum file size of 10 characters has been exceeded`,
    });
    assert.equal(formatWorkflowError(error as WorkflowError), `${FILE}: The maximum file size of 10 characters has been exceeded`);
  });

  it('place errors of a called workflow at the call site, keeping the called file’s own text', async () => {
    const called = { name: 'octo/lib/.github/workflows/build.yml@v1', content: 'on: workflow_call\njobz: {}\n' };
    const errors = await errorsOf('on: push\njobs:\n  call:\n    uses: octo/lib/.github/workflows/build.yml@v1\n', {
      loader: { read: () => Promise.resolve(called) },
    });
    const first = errors[0];
    assert.equal(first?.file, FILE);
    assert.equal(first?.line, 4);
    assert.equal(first?.column, 11);
    assert.equal(
      first?.githubMessage,
      `In ${FILE} (Line: 4, Col: 11): Error from called workflow ${called.name} (Line: 2, Col: 1): Unexpected value 'jobz'`,
    );
  });
});
