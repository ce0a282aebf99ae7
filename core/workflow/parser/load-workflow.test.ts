import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { isReusableJob, loadWorkflow, serializeWorkflow } from './index.js';
import type { ConvertedJob, LoadWorkflowResult } from './index.js';

function firstJob(result: LoadWorkflowResult): ConvertedJob {
  const job = result.template?.jobs[0];
  assert.ok(job !== undefined && !isReusableJob(job), JSON.stringify(result.errors));
  return job;
}

const ANCHORED = [
  'on: push',
  'jobs:',
  '  a:',
  '    runs-on: &os ubuntu-latest',
  '    steps: [{ run: echo }]',
  '  b:',
  '    runs-on: *os',
  '    steps: [{ run: echo }]',
].join('\n');

describe('loadWorkflow', () => {
  it('expands YAML anchors, as github.com does, unless told to refuse them like the parser', async () => {
    const allowed = await loadWorkflow({ name: 'w.yml', content: ANCHORED });
    assert.deepEqual(allowed.errors, []);
    assert.deepEqual(allowed.template?.jobs.map((job) => (isReusableJob(job) ? '' : job['runs-on']?.toString())), ['ubuntu-latest', 'ubuntu-latest']);

    const refused = await loadWorkflow({ name: 'w.yml', content: ANCHORED }, { allowAnchors: false });
    assert.deepEqual(refused.errors.map((error) => error.githubMessage), ["w.yml: Anchors are not currently supported. Remove the anchor 'os'"]);
  });

  it('accepts what github.com accepts under `on:`, and checks like the language service on request', async () => {
    const content = 'on:\n  workflow_dispatch:\n    inputs:\n    unknown: 1\njobs:\n  a:\n    runs-on: x\n    steps: [{ run: echo }]\n';
    const relaxed = await loadWorkflow({ name: 'w.yml', content });
    assert.deepEqual(relaxed.errors, []);
    assert.ok(relaxed.template?.events.workflow_dispatch !== undefined);

    const strict = await loadWorkflow({ name: 'w.yml', content }, { strictEvents: true });
    assert.deepEqual(strict.errors.map((error) => error.message), ["Unexpected value ''", "Unexpected value 'unknown'"]);
  });

  it('keeps the job and step members the runner needs, and hands workflow permissions to jobs', async () => {
    const content = [
      'on: push',
      'permissions: { contents: read }',
      'jobs:',
      '  a:',
      '    runs-on: x',
      '    timeout-minutes: 30',
      '    continue-on-error: ${{ matrix.experimental }}',
      '    defaults: { run: { shell: bash } }',
      '    steps:',
      '      - uses: actions/checkout@v4',
      '        with: { fetch-depth: 0 }',
      '        timeout-minutes: 5',
      '      - run: make',
      '        working-directory: src',
      '        shell: pwsh',
    ].join('\n');
    const result = await loadWorkflow({ name: 'w.yml', content });
    const job = firstJob(result);
    assert.equal(job['timeout-minutes']?.toString(), '30');
    assert.equal(job['continue-on-error']?.isExpression, true);
    assert.deepEqual(job.permissions, { contents: 'read' });
    assert.ok(job.defaults !== undefined);
    const [checkout, make] = job.steps;
    assert.ok(checkout?.with !== undefined);
    assert.equal(checkout?.['timeout-minutes']?.toString(), '5');
    assert.equal(make?.['working-directory']?.toString(), 'src');
    assert.equal(make?.shell?.toString(), 'pwsh');
    const json = serializeWorkflow(result);
    assert.deepEqual(Object.keys(json), ['permissions', 'jobs']);
  });

  it('turns numbers into strings the way GitHub does (15 significant digits)', async () => {
    const content = 'on: push\nenv:\n  RATIO: 0.84551240822557006\n  BIG: 1587106672383762434\njobs:\n  a:\n    runs-on: x\n    steps: [{ run: echo }]\n';
    const result = await loadWorkflow({ name: 'w.yml', content });
    const env = serializeWorkflow(result)['env'];
    assert.deepEqual(env, {
      type: 2,
      map: [
        { Key: 'RATIO', Value: '0.84551240822557' },
        { Key: 'BIG', Value: '1.58710667238376E+18' },
      ],
    });
  });

  it('returns the raw token tree alongside the converted workflow', async () => {
    const result = await loadWorkflow({ name: 'w.yml', content: 'on: push\njobs:\n  a:\n    runs-on: x\n    steps: [{ run: echo }]\n' });
    assert.equal(result.tokens?.templateTokenType, 2);
    assert.deepEqual(result.fileTable, ['w.yml']);
    assert.equal(firstJob(result).id.value, 'a');
  });
});
