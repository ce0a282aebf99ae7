/**
 * `svc plan --json`: the plan as data. Each job entry holds its id, name, runner selection,
 * `needs`, matrix values and step count (spec: "Job (plan view)"); step commands, `environment`,
 * `permissions` and secrets are left out. One entry per job that runs on a runner (matrix
 * instances each; a calling job is replaced by the jobs it calls, named `caller / callee`).
 * `needs` lists job paths (`job`): a dependency on a calling job reads as the jobs it calls.
 */
import type { JsonObject } from '../triggers/index.js';
import { jobGraph } from './job-graph.js';
import type { ConcurrencyQueue, RunsOn, WorkflowPlan } from './types.js';

export interface PlanJobView {
  /** The instance id (`build[0]`, `release/publish`). */
  readonly id: string;
  /** The job path the instance belongs to (what `needs` lists). */
  readonly job: string;
  readonly name: string;
  /** Labels, or `{ group, labels }`; null while it waits for `needs`. */
  readonly runs_on: readonly string[] | { readonly group: string; readonly labels: readonly string[] } | null;
  readonly needs: readonly string[];
  readonly matrix: JsonObject | null;
  readonly steps: number;
  /** Fields that wait for the jobs needed (present only when some do). */
  readonly deferred?: readonly string[];
}

export interface PlanView {
  readonly workflow: {
    readonly name: string;
    readonly path: string;
    readonly event: string;
    readonly ref: string;
    readonly sha: string;
    readonly run_name: string | null;
    /** `triggered`, `skipped`, `invalid` or `undetermined`. */
    readonly trigger: string;
    readonly trigger_reason?: string;
    /** `queue`: `single` (one waits, a newer one replaces it) or `max` (up to 100 wait, in order). */
    readonly concurrency: { readonly group: string; readonly cancel_in_progress: boolean; readonly queue: ConcurrencyQueue } | null;
    readonly jobs: number;
  };
  readonly jobs: readonly PlanJobView[];
}

export function planView(plan: WorkflowPlan): PlanView {
  const reason = triggerReason(plan);
  return {
    workflow: {
      name: plan.name,
      path: plan.path,
      event: plan.event,
      ref: plan.github.ref,
      sha: plan.github.sha,
      run_name: plan.runName ?? null,
      trigger: plan.trigger.status,
      ...(reason === undefined ? {} : { trigger_reason: reason }),
      concurrency:
        plan.concurrency === undefined
          ? null
          : { group: plan.concurrency.group, cancel_in_progress: plan.concurrency.cancelInProgress, queue: plan.concurrency.queue },
      jobs: plan.jobCount,
    },
    jobs: jobGraph(plan).flatMap(({ job, waitsFor }) =>
      job.instances.map((instance) => {
        const deferred = [...job.deferred, ...instance.deferred].map((entry) => entry.field);
        return {
          id: instance.id,
          job: job.path,
          name: instance.name,
          runs_on: runsOnView(instance.runsOn),
          needs: waitsFor,
          matrix: instance.matrix,
          steps: instance.steps.length,
          ...(deferred.length === 0 ? {} : { deferred: [...new Set(deferred)] }),
        };
      }),
    ),
  };
}

function runsOnView(runsOn: RunsOn | undefined): PlanJobView['runs_on'] {
  if (runsOn === undefined) return null;
  return runsOn.group === undefined ? runsOn.labels : { group: runsOn.group, labels: runsOn.labels };
}

function triggerReason(plan: WorkflowPlan): string | undefined {
  const trigger = plan.trigger;
  if (trigger.status === 'skipped' || trigger.status === 'undetermined') return trigger.reason;
  if (trigger.status === 'invalid') return trigger.errors.join('; ');
  return undefined;
}
