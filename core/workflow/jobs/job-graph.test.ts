import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { loadWorkflow, type LoadedWorkflowFile, type WorkflowRef } from '../parser/index.js';
import { flattenJobs, jobGraph, runnableJobs, stages } from './job-graph.js';
import { localEvent } from './local-event.js';
import { planWorkflow } from './plan-workflow.js';
import type { WorkflowPlan } from './types.js';

const LIB = 'on: workflow_call\njobs:\n  one:\n    runs-on: x\n    steps: [{ run: a }]\n  two:\n    needs: one\n    runs-on: x\n    steps: [{ run: b }]\n';

async function plan(jobs: string): Promise<WorkflowPlan> {
  const loader = { read: (ref: WorkflowRef): Promise<LoadedWorkflowFile> => Promise.resolve({ name: `./${ref.path}`, content: LIB }) };
  const loaded = await loadWorkflow({ name: 'ci.yml', content: `on: push\njobs:\n${jobs.replace(/^/gm, '  ')}\n` }, { loader });
  assert.deepEqual(loaded.errors, []);
  return planWorkflow(loaded, { event: localEvent({ repository: 'o/r', ref: 'refs/heads/main', sha: 'a'.repeat(40), actor: 'me' }) });
}

const runner = (key: string, needs = ''): string => `${key}:\n  runs-on: x\n${needs === '' ? '' : `  needs: [${needs}]\n`}  steps: [{ run: x }]`;

describe('stages', () => {
  it('puts each job one stage after the last of the jobs it needs, in file order', async () => {
    const result = await plan([runner('a'), runner('d', 'c'), runner('b'), runner('c', 'a, b'), runner('e', 'a')].join('\n'));
    assert.deepEqual(stages(result).map((stage) => stage.map((job) => job.key)), [['a', 'b'], ['c', 'e'], ['d']]);
  });

  it('replaces a calling job by the jobs it calls, which wait for what the caller needs', async () => {
    const result = await plan([runner('prep'), 'lib:\n  needs: prep\n  uses: ./.github/workflows/lib.yml', runner('after', 'lib')].join('\n'));
    assert.deepEqual(stages(result).map((stage) => stage.map((job) => job.path)), [['prep'], ['lib/one'], ['lib/two'], ['after']]);
    assert.deepEqual(
      jobGraph(result).map((node) => [node.job.path, node.waitsFor]),
      [['prep', []], ['lib/one', ['prep']], ['lib/two', ['lib/one']], ['after', ['lib/one', 'lib/two']]],
    );
  });

  it('lists every job, callers included, and the runnable ones apart', async () => {
    const result = await plan(['lib:\n  strategy: { matrix: { v: [1, 2] } }\n  uses: ./.github/workflows/lib.yml', runner('z')].join('\n'));
    assert.deepEqual(flattenJobs(result.jobs).map((job) => job.path), ['lib', 'lib[0]/one', 'lib[0]/two', 'lib[1]/one', 'lib[1]/two', 'z']);
    assert.deepEqual(runnableJobs(result.jobs).map((job) => job.path), ['lib[0]/one', 'lib[0]/two', 'lib[1]/one', 'lib[1]/two', 'z']);
  });
});
