import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { formatWorkflowError, loadWorkflow } from '../index.js';

const FILE = '.github/workflows/ci.yml';
const STEPS = '    steps: [{ run: make }]';

async function errorsOf(content: string, files: Record<string, string> = {}): Promise<string[]> {
  const loader = { read: async (ref: { path: string }) => (files[ref.path] === undefined ? undefined : { name: ref.path, content: files[ref.path] ?? '' }) };
  const result = await loadWorkflow({ name: FILE, content }, { loader });
  return result.errors.map(formatWorkflowError);
}

describe('concurrency queue', () => {
  it('takes queue: single or max, at the workflow and the job level', async () => {
    const workflow = ['on: push', 'concurrency:', '  group: deploy', '  queue: max', 'jobs:', '  a:', '    runs-on: x'];
    assert.deepEqual(await errorsOf([...workflow, '    concurrency: { group: db, queue: single, cancel-in-progress: true }', STEPS].join('\n')), []);
    assert.deepEqual(await errorsOf([...workflow, '    concurrency: { group: db, queue: max, cancel-in-progress: false }', STEPS].join('\n')), []);
    assert.deepEqual(await errorsOf(['on: push', 'concurrency:', '  group: deploy', '  queue: all', 'jobs:', '  a:', '    runs-on: x', STEPS].join('\n')), [
      `${FILE}:4:10: Unexpected value 'all'`,
    ]);
  });

  it("refuses queue: max beside cancel-in-progress: true, in GitHub's words, wherever concurrency is written", async () => {
    const called = ['on: workflow_call', 'concurrency:', '  queue: max', '  group: called', '  cancel-in-progress: true', 'jobs:', '  b:', '    runs-on: x', STEPS].join('\n');
    const errors = await errorsOf(
      [
        'on: push',
        'concurrency:',
        '  group: deploy',
        '  cancel-in-progress: true',
        '  queue: max',
        'jobs:',
        '  a:',
        '    runs-on: x',
        '    concurrency: { group: db, queue: max, cancel-in-progress: true }',
        STEPS,
        '  call:',
        '    uses: ./.github/workflows/called.yml',
        '    concurrency: { group: call, cancel-in-progress: true, queue: max }',
      ].join('\n'),
      { '.github/workflows/called.yml': called },
    );
    const message = "'queue: max' cannot be combined with 'cancel-in-progress: true'.";
    assert.deepEqual(errors, [`${FILE}:5:3: ${message}`, `${FILE}:9:31: ${message}`, `${FILE}:13:59: ${message}`]);
    assert.deepEqual(await errorsOf(['on: push', 'jobs:', '  call:', '    uses: ./.github/workflows/called.yml'].join('\n'), { '.github/workflows/called.yml': called }), [
      `${FILE}:4:11: Error from called workflow .github/workflows/called.yml (Line: 3, Col: 3): ${message}`,
    ]);
  });

  it('leaves expressions to be checked once evaluated', async () => {
    const content = ['on: push', 'concurrency:', '  group: deploy', '  queue: ${{ vars.QUEUE }}', '  cancel-in-progress: ${{ true }}', 'jobs:', '  a:', '    runs-on: x', STEPS];
    assert.deepEqual(await errorsOf(content.join('\n')), []);
  });
});
