/**
 * The job model: a loaded workflow and an event → the expanded job graph of the run
 * (`planWorkflow`), the re-expansion of one job once its `needs` are done (`expandJob`), the
 * graph and its stages, and the views `svc plan` prints. Pure functions; see types.ts for the
 * model and its identifiers.
 */
export { planWorkflow } from './plan-workflow.js';
export { environmentUrlText } from './job-fields.js';
export { expandJob, MAX_RUN_JOBS, type ExpandJobOptions } from './expand-job.js';
export { DEFAULT_CANCEL_TIMEOUT_MINUTES, DEFAULT_TIMEOUT_MINUTES } from './job-instance.js';
export { flattenJobs, jobGraph, runnableJobs, stages, type JobNode } from './job-graph.js';
export { plannedOutcome } from './call-outcome.js';
export type { PlanEvent, PlanOptions } from './run-contexts.js';
export { localEvent, ZERO_SHA, type LocalEventInput } from './local-event.js';
export { planView, type PlanJobView, type PlanView } from './plan-view.js';
export { renderHeader, renderStages, runnerText, type RenderOptions } from './render-stages.js';
export { renderGraph } from './render-graph.js';
export type {
  CallPlan,
  ConcurrencyPlan,
  ConcurrencyQueue,
  DeferredField,
  EnvironmentPlan,
  JobInstance,
  JobScope,
  PlanError,
  PlanField,
  PlannedJob,
  RunsOn,
  SecretsPass,
  StrategySummary,
  TriggerCheck,
  WorkflowPlan,
} from './types.js';
