import type { JobRecord, RunRecord, StepRecord } from '../../core/engine/index.js';

/**
 * The JSON shape of a run (`GET /api/v1/runs/{run_id}`, `POST .../cancel`) and of a job
 * (`POST .../jobs/{job_id}/cancel`, `POST .../jobs/{job_id}/approve`). Times are ISO 8601 strings, or null when not reached yet.
 * The CLI reads the same types.
 */
export interface StepView {
  readonly number: number;
  readonly name: string;
  readonly status: string;
  readonly conclusion: string | null;
  readonly started_at: string | null;
  readonly completed_at: string | null;
}

export interface JobView {
  readonly id: number;
  readonly run_id: number;
  readonly name: string;
  readonly job_key: string;
  readonly status: string;
  readonly conclusion: string | null;
  /** Why a job is pending (`needs`, `concurrency`, ...) or why it failed or was cancelled. */
  readonly reason: string | null;
  readonly attempt: number;
  readonly runner_id: string | null;
  readonly runner_name: string | null;
  readonly cancel_requested: boolean;
  readonly created_at: string;
  readonly queued_at: string | null;
  readonly started_at: string | null;
  readonly completed_at: string | null;
  readonly outputs: Readonly<Record<string, string>>;
  /** The job's `environment:`, null without one. */
  readonly environment: EnvironmentView | null;
  readonly steps: readonly StepView[];
}

/**
 * A job's environment: its name and url (as written; an expression is evaluated by the runner),
 * when its wait timer ends (once it started), and the approval that released it.
 */
export interface EnvironmentView {
  readonly name: string;
  readonly url: string | null;
  readonly wait_until: string | null;
  readonly admin_override: { readonly by: string; readonly at: string } | null;
}

export interface RunView {
  readonly id: number;
  readonly run_number: number;
  readonly run_attempt: number;
  readonly workflow: { readonly id: string; readonly name: string; readonly path: string };
  readonly display_title: string;
  readonly repository: string;
  readonly event: string;
  readonly ref: string;
  readonly sha: string;
  readonly actor: string;
  readonly trigger: string;
  readonly status: string;
  readonly conclusion: string | null;
  readonly reason: string | null;
  readonly cancel_requested: boolean;
  readonly created_at: string;
  readonly updated_at: string;
  readonly started_at: string | null;
  readonly completed_at: string | null;
  readonly jobs: readonly JobView[];
}

const iso = (ms: number): string => new Date(ms).toISOString();
const isoOrNull = (ms: number | null): string | null => (ms === null ? null : iso(ms));

export function toStepView(step: StepRecord): StepView {
  return {
    number: step.number,
    name: step.name,
    status: step.status,
    conclusion: step.conclusion,
    started_at: isoOrNull(step.startedAt),
    completed_at: isoOrNull(step.completedAt),
  };
}

export function toJobView(job: JobRecord, steps: readonly StepRecord[]): JobView {
  return {
    id: job.id,
    run_id: job.runId,
    name: job.name,
    job_key: job.jobKey,
    status: job.status,
    conclusion: job.conclusion,
    reason: job.reason,
    attempt: job.attempt,
    runner_id: job.runnerId,
    runner_name: job.runnerName,
    cancel_requested: job.cancelRequested,
    created_at: iso(job.createdAt),
    queued_at: isoOrNull(job.queuedAt),
    started_at: isoOrNull(job.startedAt),
    completed_at: isoOrNull(job.completedAt),
    outputs: job.outputs,
    environment:
      job.environment === null
        ? null
        : {
            name: job.environment.name,
            url: job.environment.url,
            wait_until: isoOrNull(job.environmentWaitUntil),
            admin_override: job.environmentApproval === null ? null : { by: job.environmentApproval.by, at: iso(job.environmentApproval.at) },
          },
    steps: steps.filter((step) => step.jobId === job.id).map(toStepView),
  };
}

export function toRunView(run: RunRecord, jobs: readonly JobRecord[], steps: readonly StepRecord[]): RunView {
  return {
    id: run.id,
    run_number: run.runNumber,
    run_attempt: run.runAttempt,
    workflow: { id: run.workflowId, name: run.workflowName, path: run.workflowPath },
    display_title: run.displayTitle,
    repository: run.repository,
    event: run.event,
    ref: run.ref,
    sha: run.sha,
    actor: run.actor,
    trigger: run.trigger,
    status: run.status,
    conclusion: run.conclusion,
    reason: run.reason,
    cancel_requested: run.cancelRequested,
    created_at: iso(run.createdAt),
    updated_at: iso(run.updatedAt),
    started_at: isoOrNull(run.startedAt),
    completed_at: isoOrNull(run.completedAt),
    jobs: jobs.map((job) => toJobView(job, steps)),
  };
}
