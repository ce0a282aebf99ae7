import type { CreateRunInput, NewJob } from '../../core/engine/index.js';

/** A planned job with sensible defaults; tests state only what they are about. */
export function job(jobKey: string, overrides: Partial<NewJob> = {}): NewJob {
  return {
    jobKey,
    instanceId: jobKey,
    name: jobKey,
    needs: [],
    matrix: null,
    strategy: null,
    runsOn: ['self-hosted'],
    ifCondition: null,
    continueOnError: false,
    timeoutMinutes: 360,
    concurrency: null,
    ...overrides,
  };
}

/** Instances of a matrix job: one per combination, with the strategy context GitHub gives them. */
export function matrixJob(jobKey: string, combos: readonly Record<string, string>[], strategy: { failFast?: boolean; maxParallel?: number } = {}, overrides: Partial<NewJob> = {}): NewJob[] {
  return combos.map((matrix, index) =>
    job(jobKey, {
      instanceId: `${jobKey} (${Object.values(matrix).join(', ')})`,
      name: `${jobKey} (${Object.values(matrix).join(', ')})`,
      matrix,
      strategy: {
        'fail-fast': strategy.failFast ?? true,
        'job-index': index,
        'job-total': combos.length,
        'max-parallel': strategy.maxParallel ?? combos.length,
      },
      ...overrides,
    }),
  );
}

export function runInput(jobs: readonly NewJob[], overrides: Partial<CreateRunInput> = {}): CreateRunInput {
  return {
    workflow: { id: 'wf_test', path: '.github/workflows/ci.yml', name: 'CI' },
    repository: 'acme/web',
    event: 'push',
    ref: 'refs/heads/main',
    sha: 'a'.repeat(40),
    actor: 'octocat',
    trigger: 'local',
    payload: { ref: 'refs/heads/main', after: 'a'.repeat(40), repository: { full_name: 'acme/web' } },
    displayTitle: 'CI',
    concurrency: null,
    files: [],
    jobs,
    ...overrides,
  };
}
