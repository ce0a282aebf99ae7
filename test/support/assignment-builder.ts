/**
 * Assignments of one job of a workflow as the engine's claim returns them (run and job rows
 * with plausible values), for tests of what is built from an assignment (the job message).
 */
import type { Assignment, Json, JobRecord, RunFile, RunRecord } from '../../core/engine/index.js';

export interface TestAssignmentOptions {
  readonly instanceId: string;
  readonly event?: string;
  readonly payload?: Json;
  /** Called workflows by key (run-files.ts): their text, or the file with the commit it was read at. */
  readonly files?: Readonly<Record<string, string | RunFile>>;
  readonly run?: Partial<RunRecord>;
  readonly job?: Partial<JobRecord>;
}

export const TEST_WORKFLOW_PATH = '.github/workflows/ci.yml';
export const TEST_SHA = 'a'.repeat(40);

/** A claimed run row; fields not given are plausible constants. */
export function testRunRecord(overrides: Partial<RunRecord> = {}): RunRecord {
  return {
    id: 12,
    workflowId: 'wf_test',
    workflowPath: TEST_WORKFLOW_PATH,
    workflowName: 'ci',
    repository: 'acme/widgets',
    runNumber: 3,
    runAttempt: 1,
    displayTitle: 'ci',
    event: 'push',
    ref: 'refs/heads/main',
    sha: TEST_SHA,
    actor: 'octo',
    trigger: 'local',
    status: 'in_progress',
    conclusion: null,
    reason: null,
    concurrencyGroup: null,
    cancelInProgress: false,
    concurrencyQueue: 'single',
    concurrencyTicket: null,
    payload: { ref: 'refs/heads/main', after: TEST_SHA },
    cancelRequested: false,
    createdAt: 0,
    updatedAt: 0,
    startedAt: 0,
    completedAt: null,
    vars: {},
    secretNames: [],
    ...overrides,
  };
}

/** A job row held by `runner-1`; the job key is the instance id without its matrix index. */
export function testJobRecord(runId: number, instanceId: string, overrides: Partial<JobRecord> = {}): JobRecord {
  return {
    id: 34,
    runId,
    jobKey: instanceId.replace(/\[\d+\]$/, ''),
    instanceId,
    name: instanceId,
    needs: [],
    matrix: null,
    strategy: null,
    runsOn: [],
    ifCondition: null,
    continueOnError: false,
    timeoutMinutes: 360,
    concurrencyGroup: null,
    cancelInProgress: false,
    concurrencyQueue: 'single',
    concurrencyTicket: null,
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
    nodeId: null,
    heardAt: null,
    homeNodeId: null,
    environment: null,
    environmentWaitUntil: null,
    environmentApproval: null,
    createdAt: 0,
    queuedAt: 0,
    startedAt: 0,
    completedAt: null,
    ...overrides,
  };
}

export function testAssignment(workflow: string, options: TestAssignmentOptions): Assignment {
  const run = testRunRecord({
    ...(options.event === undefined ? {} : { event: options.event }),
    ...(options.payload === undefined ? {} : { payload: options.payload }),
    ...options.run,
  });
  const job = testJobRecord(run.id, options.instanceId, options.job);
  const called = Object.entries(options.files ?? {}).map(([key, file]): [string, RunFile] => [key, typeof file === 'string' ? { content: file } : file]);
  const files = new Map<string, RunFile>([[TEST_WORKFLOW_PATH, { content: workflow }], ...called]);
  return { run, job, files, leaseExpiresAt: 1_700_000_600_000 };
}
