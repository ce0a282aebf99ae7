/**
 * The run engine: runs and jobs in the store, the scheduler that moves them, and the dispatch
 * port runners take jobs through. Talks to the world only through core/ports.
 */
import { createServiceRef } from '../kernel/index.js';
import type { Engine } from './engine.js';

export { createEngine, type Engine, type EngineDependencies, type StoredEvent, type WaitOptions } from './engine.js';
export { engineMigrations } from './store/migrations.js';
export type { CreateRunInput, PlannedJob } from './runs/create-run.js';
export type { RerunScope } from './runs/rerun.js';
export type { Assignment, RunnerIdentity } from './dispatch/acquire.js';
export { labelsMatch } from './dispatch/labels.js';
export type { Completion, JobOutcome } from './reporting/complete-job.js';
export type { SweepReport } from './scheduler/sweep.js';
export { JOBS_QUEUED_CHANNEL, RUN_ADVANCE_CHANNEL, RUN_EVENTS_CHANNEL, type RunEvent, type RunEventType } from './events/run-events.js';
export type { Json, JobRecord, RunRecord, StepRecord, TriggerSource } from './model/records.js';
export { forgeStatus, isTerminal, STATUSES, type Conclusion, type JobResult, type Status } from './model/statuses.js';

/** The engine as a service other plugins depend on (provided by the `engine` plugin). */
export const engineServiceRef = createServiceRef<Engine>({ id: 'engine.service' });
