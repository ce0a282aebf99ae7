/**
 * The job-wide services the steps share (the runner's job ExecutionContext and GlobalContext),
 * and the steps as the worker plans them.
 */
import type { CommandInterpreter, ProblemMatchers } from '../commands/index.js';
import type { ExpressionContexts, HashFilesPort } from '../../core/workflow/index.js';
import type { ActionStage, HandlerRegistry, KillTimings, ResolvedAction } from '../handlers/index.js';
import type { LogMasker, Reporter } from '../reporting/index.js';
import type { JobCancellation } from './cancellation.js';
import type { JobContainers } from './container-plan.js';
import type { JobContexts } from './job-contexts.js';
import type { ActionStep, JobMessage } from './job-message/index.js';
import type { JobState } from './job-state.js';
import type { RecordContext } from './record-context.js';
import type { JobDirectories } from './workspace.js';

export interface WorkerTimings {
  /** A minute of `timeout-minutes` (60 000 ms; tests shorten it). */
  readonly minuteMs: number;
  readonly killTimings?: KillTimings;
}

export interface WorkerJob {
  readonly message: JobMessage;
  readonly state: JobState;
  readonly contexts: JobContexts;
  readonly directories: JobDirectories;
  readonly reporter: Reporter;
  readonly masker: LogMasker;
  readonly interpreter: CommandInterpreter;
  readonly matchers: ProblemMatchers;
  readonly registry: HandlerRegistry;
  readonly cancellation: JobCancellation;
  readonly jobRecord: RecordContext;
  /** `ACTIONS_STEP_DEBUG`: debug lines are logged. */
  readonly debug: boolean;
  readonly platform: NodeJS.Platform;
  readonly now: () => Date;
  readonly timings: WorkerTimings;
  readonly hashFiles: HashFilesPort;
  /** `ACTIONS_RUNTIME_*` and friends for JavaScript and container actions. */
  readonly actionsRuntime: Readonly<Record<string, string>>;
  /** The job's containers (`jobs.<id>.container`, `services`): plan, engine, what runs, the step host. */
  readonly containers: JobContainers;
  /** Post steps registered so far; they run after the main steps, the last registered first. */
  readonly postSteps: PlannedStep[];
  /** Creates a step record with the next order (post steps reserve theirs, as the runner does). */
  createRecord(name: string, stepType: string, post: boolean, ids?: { readonly id: string; readonly refName: string }): RecordContext;
  /** A step starts with this `env` context: it decides ACTIONS_ALLOW_UNSECURE_COMMANDS for its commands. */
  allowUnsecureCommandsFor(env: Readonly<Record<string, string>>): void;
  /** The contexts an expression in a step sees right now. */
  stepContexts(env: Readonly<Record<string, string>>, github?: Readonly<Record<string, string>>): ExpressionContexts;
}

/** A step of the job: a message step (`main`) or an action's post stage. */
export interface PlannedStep {
  readonly stage: ActionStage;
  readonly record: RecordContext;
  readonly step: ActionStep;
  /** The display name has been evaluated (no more `${{ }}` to resolve at start). */
  displayFinal: boolean;
  /** For a main step: `if:`. For a post step: `post-if` (evaluated as written, default `always()`). */
  readonly condition: string;
  /** What the step runs, resolved in "Set up job" (or the error that says why it cannot run). */
  readonly resolved: ResolvedAction | Error;
  /** `save-state` values, shared by the stages of one action. */
  readonly state: Record<string, string>;
  /** The inputs evaluated for the main stage (a post stage gets the same). */
  inputs?: Readonly<Record<string, string>>;
}
