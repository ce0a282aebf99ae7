/**
 * Test support for this folder's unit tests: an assignment of one job of a workflow, as the
 * engine's claim returns it (run and job rows with plausible values).
 */
import type { Assignment, JobRecord, RunRecord } from '../../../core/engine/index.js';
import type { Json } from '../../../core/engine/index.js';

export interface TestAssignmentOptions {
  readonly instanceId: string;
  readonly event?: string;
  readonly payload?: Json;
  readonly files?: Readonly<Record<string, string>>;
  readonly run?: Partial<RunRecord>;
  readonly job?: Partial<JobRecord>;
}

export const TEST_WORKFLOW_PATH = '.github/workflows/ci.yml';
export const TEST_SHA = 'a'.repeat(40);

export function testAssignment(workflow: string, options: TestAssignmentOptions): Assignment {
  const run: RunRecord = {
    id: 12,
    workflowId: 'wf_test',
    workflowPath: TEST_WORKFLOW_PATH,
    workflowName: 'ci',
    repository: 'acme/widgets',
    runNumber: 3,
    runAttempt: 1,
    displayTitle: 'ci',
    event: options.event ?? 'push',
    ref: 'refs/heads/main',
    sha: TEST_SHA,
    actor: 'octo',
    trigger: 'local',
    status: 'in_progress',
    conclusion: null,
    reason: null,
    concurrencyGroup: null,
    cancelInProgress: false,
    payload: options.payload ?? { ref: 'refs/heads/main', after: TEST_SHA },
    cancelRequested: false,
    createdAt: 0,
    updatedAt: 0,
    startedAt: 0,
    completedAt: null,
    ...options.run,
  };
  const job: JobRecord = {
    id: 34,
    runId: run.id,
    jobKey: options.instanceId.replace(/\[\d+\]$/, ''),
    instanceId: options.instanceId,
    name: options.instanceId,
    needs: [],
    matrix: null,
    strategy: null,
    runsOn: [],
    ifCondition: null,
    continueOnError: false,
    timeoutMinutes: 360,
    concurrencyGroup: null,
    cancelInProgress: false,
    status: 'in_progress',
    conclusion: null,
    reason: null,
    outputs: {},
    attempt: 1,
    runnerId: 'runner-1',
    runnerName: 'runner-1',
    leaseExpiresAt: 1_700_000_600_000,
    cancelRequested: false,
    deferred: false,
    createdAt: 0,
    queuedAt: 0,
    startedAt: 0,
    completedAt: null,
    ...options.job,
  };
  const files = new Map<string, string>([[TEST_WORKFLOW_PATH, workflow], ...Object.entries(options.files ?? {})]);
  return { run, job, files, leaseExpiresAt: 1_700_000_600_000 };
}
