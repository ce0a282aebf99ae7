import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { loadWorkflow } from '../parser/index.js';
import { localEvent } from './local-event.js';
import { planView } from './plan-view.js';
import { planWorkflow } from './plan-workflow.js';
import { renderGraph } from './render-graph.js';
import { renderStages } from './render-stages.js';
import type { WorkflowPlan } from './types.js';

const YAML = `name: CI
on: push
concurrency: { group: ci, cancel-in-progress: true }
jobs:
  lint:
    runs-on: ubuntu-latest
    environment: production
    permissions: { contents: write }
    steps:
      - run: echo \${{ secrets.TOKEN }}
  test:
    runs-on: \${{ matrix.os }}
    strategy:
      matrix:
        os: [ubuntu-latest, macos-latest]
    steps: [{ run: a }, { run: b }]
  deploy:
    needs: [lint, test]
    if: github.ref == 'refs/heads/main'
    runs-on: { group: prod, labels: [linux] }
    steps: [{ run: deploy }]
`;

async function plan(): Promise<WorkflowPlan> {
  const loaded = await loadWorkflow({ name: '.github/workflows/ci.yml', content: YAML });
  assert.deepEqual(loaded.errors, []);
  return planWorkflow(loaded, { event: localEvent({ repository: 'o/r', ref: 'refs/heads/main', sha: 'a'.repeat(40), actor: 'me' }) });
}

describe('planView', () => {
  it('lists each instance with id, name, runner, needs, matrix and step count, and nothing secret', async () => {
    const view = planView(await plan());
    assert.deepEqual(view.workflow, {
      name: 'CI',
      path: '.github/workflows/ci.yml',
      event: 'push',
      ref: 'refs/heads/main',
      sha: 'a'.repeat(40),
      run_name: null,
      trigger: 'triggered',
      concurrency: { group: 'ci', cancel_in_progress: true, queue: 'single' },
      jobs: 4,
    });
    assert.deepEqual(view.jobs, [
      { id: 'lint', job: 'lint', name: 'lint', runs_on: ['ubuntu-latest'], needs: [], matrix: null, steps: 1 },
      { id: 'test[0]', job: 'test', name: 'test (ubuntu-latest)', runs_on: ['ubuntu-latest'], needs: [], matrix: { os: 'ubuntu-latest' }, steps: 2 },
      { id: 'test[1]', job: 'test', name: 'test (macos-latest)', runs_on: ['macos-latest'], needs: [], matrix: { os: 'macos-latest' }, steps: 2 },
      { id: 'deploy', job: 'deploy', name: 'deploy', runs_on: { group: 'prod', labels: ['linux'] }, needs: ['lint', 'test'], matrix: null, steps: 1 },
    ]);
    const text = JSON.stringify(view);
    for (const hidden of ['production', 'contents', 'secrets', 'echo']) assert.ok(!text.includes(hidden), `${hidden} leaked`);
  });
});

describe('renderStages', () => {
  it('shows the stages with runners, matrix instances, needs and conditions', async () => {
    assert.equal(
      renderStages(await plan()),
      [
        'CI (.github/workflows/ci.yml)',
        '  event        push refs/heads/main @ aaaaaaaaaaaa',
        '  concurrency  ci (cancels runs in progress)',
        '  4 jobs in 2 stages',
        '',
        'Stage 1',
        '  lint                     ubuntu-latest',
        '  test                     (matrix, 2 jobs)',
        '    test (ubuntu-latest)   ubuntu-latest',
        '    test (macos-latest)    macos-latest',
        'Stage 2',
        "  deploy                   group prod: linux   needs: lint, test   if: github.ref == 'refs/heads/main'",
        '',
      ].join('\n'),
    );
  });

  it('lists the first instances of a large matrix and counts the rest', async () => {
    const text = renderStages(await plan(), { maxInstances: 1 });
    assert.match(text, /test \(ubuntu-latest\)[^\n]*\n {4}… and 1 more\n/);
  });
});

describe('renderGraph', () => {
  it('draws a row of boxes per stage joined by a line to the next stage', async () => {
    assert.equal(
      renderGraph(await plan()),
      [
        '┌───────────────┐ ┌────────────┐',
        '│ lint          │ │ test       │',
        '│ ubuntu-latest │ │ matrix × 2 │',
        '└───────┬───────┘ └──────┬─────┘',
        '        └───────┬────────┘',
        '                ▼',
        '┌───────────────────┐',
        '│ deploy            │',
        '│ group prod: linux │',
        '│ needs lint, test  │',
        '└───────────────────┘',
        '',
      ].join('\n'),
    );
  });

  it('wraps a stage wider than the terminal into several rows', async () => {
    const lines = renderGraph(await plan(), 30).split('\n');
    assert.ok(lines.every((line) => line.length <= 30), lines.join('\n'));
    assert.equal(lines.filter((line) => line.startsWith('┌')).length, 3, 'lint and test on rows of their own, then deploy');
  });
});
