/**
 * Builders of the job-scoped contexts ("Contexts reference"): `steps`, `needs`, `jobs`, `job`,
 * `strategy`, `secrets`.
 */
import type { JobResult, JobStatus } from '../../expressions/index.js';
import type {
  ContainerContext,
  JobContext,
  JobOutcomeContext,
  NeedsContext,
  SecretsContext,
  ServiceContext,
  StepConclusion,
  StepContext,
  StepsContext,
  StrategyContextData,
  StringMap,
} from './context-types.js';

export interface StepRecord {
  /** The step's id; generated ids (starting with `__`) are not in the context, as on the runner. */
  readonly id: string;
  /** The result before `continue-on-error`. */
  readonly outcome: StepConclusion;
  readonly continueOnError?: boolean;
  readonly outputs?: StringMap;
}

/**
 * One step's entry: a failed step with `continue-on-error` has outcome `failure` and
 * conclusion `success`.
 */
export function stepContext(record: Omit<StepRecord, 'id'>): StepContext {
  const conclusion = record.outcome === 'failure' && record.continueOnError === true ? 'success' : record.outcome;
  return { outputs: record.outputs ?? {}, outcome: record.outcome, conclusion };
}

/** `steps`: the steps that ran so far and have an id. */
export function buildStepsContext(records: readonly StepRecord[]): StepsContext {
  const result: Record<string, StepContext> = {};
  for (const record of records) {
    if (record.id === '' || record.id.startsWith('__')) continue;
    result[record.id] = stepContext(record);
  }
  return result;
}

export interface JobOutcome {
  readonly result: JobResult;
  readonly outputs?: StringMap;
}

/** `needs` (the direct dependencies) or `jobs` (a reusable workflow's jobs). */
export function buildNeedsContext(jobs: Readonly<Record<string, JobOutcome>>): NeedsContext {
  const result: Record<string, JobOutcomeContext> = {};
  for (const [id, job] of Object.entries(jobs)) result[id] = { result: job.result, outputs: job.outputs ?? {} };
  return result;
}

export interface JobContextInput {
  readonly status: JobStatus;
  readonly container?: ContainerContext;
  readonly services?: Readonly<Record<string, ServiceContext>>;
  readonly checkRunId?: number;
  /** Identity of the workflow file that defines the job (a reusable workflow's own file). */
  readonly workflow?: {
    readonly ref: string;
    readonly sha: string;
    readonly repository: string;
    readonly filePath: string;
  };
}

/** `job`: only `status` when the job has no containers. */
export function buildJobContext(input: JobContextInput): JobContext {
  return {
    status: input.status,
    ...(input.container === undefined ? {} : { container: input.container }),
    ...(input.services === undefined ? {} : { services: input.services }),
    ...(input.checkRunId === undefined ? {} : { check_run_id: input.checkRunId }),
    ...(input.workflow === undefined
      ? {}
      : {
          workflow_ref: input.workflow.ref,
          workflow_sha: input.workflow.sha,
          workflow_repository: input.workflow.repository,
          workflow_file_path: input.workflow.filePath,
        }),
  };
}

export interface StrategyInput {
  readonly failFast?: boolean;
  readonly jobIndex?: number;
  readonly jobTotal?: number;
  readonly maxParallel?: number;
}

/**
 * `strategy` of one job. Defaults are those of a job without a matrix: fail-fast, the only job
 * of one, no limit (which reads as the job total). Matrix jobs get theirs from `resolveStrategy`.
 */
export function buildStrategyContext(input: StrategyInput = {}): StrategyContextData {
  const total = input.jobTotal ?? 1;
  return {
    'fail-fast': input.failFast ?? true,
    'job-index': input.jobIndex ?? 0,
    'job-total': total,
    'max-parallel': input.maxParallel ?? total,
  };
}

/** `secrets`: the run's secrets plus the automatic `GITHUB_TOKEN` (as `github_token`). */
export function buildSecretsContext(secrets: StringMap, githubToken: string): SecretsContext {
  return { ...secrets, github_token: githubToken };
}
