/**
 * The run engine: runs and jobs in the store, the scheduler that moves them, and the dispatch
 * port runners take jobs through. Talks to the world only through core/ports.
 */
import { createExtensionPoint, createServiceRef } from '../kernel/index.js';
import type { Engine } from './engine.js';
import type { SelectionPolicies } from './selection/policy.js';
import type { Reporting } from './reporting/reporting.js';

export { createEngine, type Engine, type EngineDependencies, type StoredEvent, type Submitted, type WaitOptions } from './engine.js';
export { selectRuns, type Selection, type SelectionLoader, type SelectionRequest, type SelectedWorkflowFile, type WorkflowFileAtCommit } from './selection/select-runs.js';
export { workflowId } from './selection/workflow-id.js';
export { reviewCandidate, type PolicyVerdict, type RunCandidate, type SelectionPolicies, type SelectionPolicy } from './selection/policy.js';
export { engineMigrations } from './store/migrations.js';
export type { CreateRunInput, NewConcurrency, NewJob } from './runs/create-run.js';
export { runFileKey, storedWorkflowLoader, type RunFile, type RunFiles, type WorkflowCommit } from './runs/run-files.js';
export type { RerunScope } from './runs/rerun.js';
export type { Assignment, RunnerIdentity } from './dispatch/acquire.js';
export { labelsMatch } from './dispatch/labels.js';
export { instancesDone, needsEntry, type NeedsEntry } from './scheduler/needs.js';
export type { Completion, JobOutcome } from './reporting/complete-job.js';
export type { SweepReport } from './scheduler/sweep.js';
export { deadNodeReason, UNHEARD_AFTER_NODE_DEATH_MS } from './scheduler/dead-node-jobs.js';
export { lostRunnerReason } from './scheduler/reasons.js';
export {
  APPROVAL_REASON,
  deploymentPatternMatches,
  environmentHoldText,
  environmentRulesFrom,
  WAIT_TIMER_REASON,
  type ApprovalResult,
  type EnvironmentRule,
  type EnvironmentRules,
} from './environments/index.js';
export { createNodeRegistry, type NodeHolder, type NodeInfo, type NodeRegistration, type NodeRegistry, type NodeState } from './nodes/node-registry.js';
export { JOBS_QUEUED_CHANNEL, RUN_ADVANCE_CHANNEL, RUN_EVENTS_CHANNEL, type RunEvent, type RunEventType } from './events/run-events.js';
export {
  runSuppliedLabel,
  type ConcurrencyQueue,
  type EnvironmentApproval,
  type JobEnvironment,
  type Json,
  type JobRecord,
  type RunRecord,
  type RunSuppliedValues,
  type StepRecord,
  type TriggerSource,
} from './model/records.js';
export { forgeStatus, isTerminal, STATUSES, type Conclusion, type JobResult, type Status } from './model/statuses.js';

/** Where policy plugins add their run-creation policies (provided by the `engine` plugin). */
export const selectionPoliciesExtensionPoint = createExtensionPoint<SelectionPolicies>({ id: 'engine.selectionPolicies' });

/** The engine as a service other plugins depend on (provided by the `engine` plugin). */
export const engineServiceRef = createServiceRef<Engine>({ id: 'engine.service' });

export { createReporting, type Reporting, type ReportingDependencies } from './reporting/reporting.js';
export type { StepReport } from './reporting/steps.js';
export type { LogAck, LogChunkInput } from './reporting/append-log.js';
export type { LogFilter, LogLine } from './reporting/read-logs.js';
export type { AnnotationInput, AnnotationLevel } from './reporting/annotations.js';
export type { FeedEntry, FeedPage } from './reporting/run-feed.js';

/** Runner reports (steps, logs, annotations) and their reading side (provided by the `engine` plugin). */
export const reportingServiceRef = createServiceRef<Reporting>({ id: 'engine.reporting' });
