import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { isReusableJob, loadWorkflow } from './index.js';
import type { ConvertedWorkflowJob, LoadedWorkflowFile, WorkflowLoader, WorkflowRef } from './index.js';

/** An in-memory loader over `key → content`, keys as `./path` or `owner/repo/path@ref`; records requests. */
function memoryLoader(files: Record<string, string>): WorkflowLoader & { readonly requests: WorkflowRef[] } {
  const requests: WorkflowRef[] = [];
  return {
    requests,
    read(ref: WorkflowRef): Promise<LoadedWorkflowFile | undefined> {
      requests.push(ref);
      const key = ref.repository === undefined ? `./${ref.path}` : `${ref.repository}/${ref.path}@${ref.ref ?? ''}`;
      const content = files[key];
      return Promise.resolve(content === undefined ? undefined : { name: key, content });
    },
  };
}

const CALLER = [
  'on: push',
  'jobs:',
  '  local:',
  '    uses: ./.github/workflows/build.yml',
  '    with:',
  '      target: prod',
  '  remote:',
  '    uses: octo/lib/.github/workflows/release.yml@v2',
].join('\n');

const BUILD = [
  'on:',
  '  workflow_call:',
  '    inputs:',
  '      target: { type: string, required: true }',
  'jobs:',
  '  compile:',
  '    runs-on: ubuntu-latest',
  '    steps:',
  '      - run: make ${{ inputs.target }}',
].join('\n');

const RELEASE = ['on: workflow_call', 'jobs:', '  publish:', '    uses: ./.github/workflows/publish.yml'].join('\n');
const PUBLISH = ['on: workflow_call', 'jobs:', '  upload:', '    runs-on: ubuntu-latest', '    steps:', '      - run: ./upload'].join('\n');

function shape(jobs: readonly ConvertedWorkflowJob[]): unknown[] {
  return jobs.map((job) => (isReusableJob(job) ? { [job.id.value]: shape(job.jobs ?? []) } : job.id.value));
}

describe('the WorkflowLoader port', () => {
  it('resolves local, remote and nested references and expands the called jobs', async () => {
    const loader = memoryLoader({
      './.github/workflows/build.yml': BUILD,
      'octo/lib/.github/workflows/release.yml@v2': RELEASE,
      'octo/lib/.github/workflows/publish.yml@v2': PUBLISH,
    });
    const result = await loadWorkflow({ name: '.github/workflows/ci.yml', content: CALLER }, { loader });
    assert.deepEqual(result.errors, []);
    assert.deepEqual(loader.requests, [
      { path: '.github/workflows/build.yml' },
      { repository: 'octo/lib', path: '.github/workflows/release.yml', ref: 'v2' },
      // A `./` reference inside a fetched workflow stays in that repository, at that ref.
      { repository: 'octo/lib', path: '.github/workflows/publish.yml', ref: 'v2' },
    ]);
    assert.deepEqual(shape(result.template?.jobs ?? []), [{ local: ['compile'] }, { remote: [{ publish: ['upload'] }] }]);
    assert.deepEqual(result.fileTable, [
      '.github/workflows/ci.yml',
      './.github/workflows/build.yml',
      'octo/lib/.github/workflows/release.yml@v2',
      'octo/lib/.github/workflows/publish.yml@v2',
    ]);
    const local = result.template?.jobs[0];
    assert.ok(local !== undefined && isReusableJob(local));
    assert.equal(local['input-definitions']?.find('target') !== undefined, true);
  });

  it('fetches a workflow called by several jobs once', async () => {
    const loader = memoryLoader({ './.github/workflows/publish.yml': PUBLISH });
    const caller = ['on: push', 'jobs:', '  a:', '    uses: ./.github/workflows/publish.yml', '  b:', '    uses: ./.github/workflows/publish.yml'].join('\n');
    const result = await loadWorkflow({ name: 'ci.yml', content: caller }, { loader });
    assert.deepEqual(result.errors, []);
    assert.equal(loader.requests.length, 1);
    assert.deepEqual(shape(result.template?.jobs ?? []), [{ a: ['upload'] }, { b: ['upload'] }]);
  });

  it('reports a workflow the loader cannot find at the `uses:` of the calling job', async () => {
    const result = await loadWorkflow({ name: 'ci.yml', content: CALLER }, { loader: memoryLoader({}) });
    assert.deepEqual(
      result.errors.map((error) => [error.line, error.column, error.message]),
      [[4, 11, 'Unable to find reusable workflow']],
    );
  });

  it('checks what the caller passes against the called workflow', async () => {
    const loader = memoryLoader({ './.github/workflows/build.yml': BUILD, 'octo/lib/.github/workflows/release.yml@v2': RELEASE });
    const caller = CALLER.replace('      target: prod', '      targt: prod');
    const result = await loadWorkflow({ name: 'ci.yml', content: caller }, { loader });
    assert.deepEqual(
      result.errors.map((error) => error.githubMessage),
      [
        'ci.yml (Line: 4, Col: 11): Input target is required, but not provided while calling.',
        'ci.yml (Line: 6, Col: 14): Invalid input, targt is not defined in the referenced workflow.',
      ],
    );
  });

  it('stops at the nesting limit', async () => {
    const loader = memoryLoader({ 'octo/lib/.github/workflows/release.yml@v2': RELEASE, 'octo/lib/.github/workflows/publish.yml@v2': PUBLISH });
    const caller = 'on: push\njobs:\n  remote:\n    uses: octo/lib/.github/workflows/release.yml@v2\n';
    const result = await loadWorkflow({ name: 'ci.yml', content: caller }, { loader, maxNestedReusableWorkflowsDepth: 1 });
    assert.deepEqual(result.errors.map((error) => error.githubMessage), ['Nested reusable workflow depth exceeded 1.']);
  });

  it('leaves reusable workflow jobs unexpanded without a loader', async () => {
    const result = await loadWorkflow({ name: 'ci.yml', content: CALLER });
    assert.deepEqual(result.errors, []);
    assert.deepEqual(shape(result.template?.jobs ?? []), [{ local: [] }, { remote: [] }]);
  });
});
