/**
 * The job model: a loaded workflow and an event expanded into the jobs a run holds. Built once
 * at plan time (`planWorkflow`) and again, job by job, at queue time (`expandJob`) for the values
 * that had to wait for the results of the jobs needed.
 *
 * Identifiers (see docs in expand-job.ts):
 * - job path: the job's key, prefixed by the instance id of the calling job for the jobs of a
 *   called (reusable) workflow: `build`, `release/publish`, `release[1]/publish`.
 * - instance id: the job path, plus `[<strategy.job-index>]` for each job of a matrix:
 *   `build`, `build[0]`, `release[1]/publish[2]`. Unique in the run and the same for the same
 *   workflow, event and inputs. Keys never contain `/`, `[` or `]`, so ids cannot collide.
 */
import type { ConvertedStep, ConvertedWorkflowJob, Permissions, TemplateToken } from '../parser/index.js';
import type { GithubContext, InputsContext, StrategyContextData, VarsContext } from '../templates/index.js';
import type { JsonObject, TriggerResult } from '../triggers/index.js';

/** `runs-on`: the labels a runner must have, and the runner group when one is named. */
export interface RunsOn {
  readonly labels: readonly string[];
  readonly group?: string;
}

/** A `concurrency:` evaluated. GitHub compares groups case-insensitively: compare `key`s. */
export interface ConcurrencyPlan {
  readonly group: string;
  /** The group lower-cased (GitHub: "The concurrency group name is case insensitive"). */
  readonly key: string;
  readonly cancelInProgress: boolean;
  /**
   * `single` (default): at most one waits, a newcomer replaces it. `max`: up to 100 wait and
   * start in the order they began waiting (never with `cancel-in-progress`).
   */
  readonly queue: ConcurrencyQueue;
}

export type ConcurrencyQueue = 'single' | 'max';

/** `environment:` evaluated; `url` stays a token, the runner evaluates it after the steps. */
export interface EnvironmentPlan {
  readonly name: string;
  readonly url?: TemplateToken;
  /** False when the job sets `deployment: false`. */
  readonly deployment: boolean;
}

/** Job fields that may wait for the jobs needed (or for the matrix or inputs that do). */
export type PlanField =
  | 'strategy'
  | 'name'
  | 'runs-on'
  | 'concurrency'
  | 'environment'
  | 'timeout-minutes'
  | 'cancel-timeout-minutes'
  | 'continue-on-error'
  | 'container'
  | 'services'
  | 'with'
  | 'run-name'
  | 'workflow-concurrency';

/** A field left for later: the contexts it reads that are not known yet (`needs`, `matrix`, ...). */
export interface DeferredField {
  readonly field: PlanField;
  readonly waitingFor: readonly string[];
}

/** A problem found while planning (evaluation errors, matrix errors). */
export interface PlanError {
  readonly file?: string;
  readonly line?: number;
  readonly column?: number;
  readonly message: string;
  /** The job path it concerns, when it concerns one. */
  readonly job?: string;
}

/** `secrets:` of a calling job: everything the caller has, or the names it maps. */
export type SecretsPass =
  | { readonly inherit: true; readonly names: readonly string[] | undefined }
  | { readonly inherit: false; readonly names: readonly string[]; readonly values: TemplateToken | undefined };

/** What a calling job (`uses: ./.github/workflows/x.yml`) runs. */
export interface CallPlan {
  readonly uses: string;
  /** The called workflow's `inputs` context; undefined while `with:` waits for `needs`. */
  readonly inputs: InputsContext | undefined;
  readonly secrets: SecretsPass;
  /** `on.workflow_call.outputs.<id>.value` tokens, evaluated with `jobs` when the call completes. */
  readonly outputs: Readonly<Record<string, TemplateToken>>;
  /** The called workflow's own `concurrency:`. */
  readonly concurrency: ConcurrencyPlan | undefined;
  /** False when the called workflow was not loaded (no WorkflowLoader): `jobs` is then empty. */
  readonly loaded: boolean;
  readonly jobs: readonly PlannedJob[];
}

/** One job of the run: a matrix combination of a `jobs.<id>` entry (or the entry itself). */
export interface JobInstance {
  readonly id: string;
  /** The display name: `name:` evaluated, or GitHub's matrix name; `caller / callee` when called. */
  readonly name: string;
  readonly matrix: JsonObject | null;
  readonly strategy: StrategyContextData;
  /** Undefined for a calling job, or while deferred. */
  readonly runsOn: RunsOn | undefined;
  readonly concurrency: ConcurrencyPlan | undefined;
  readonly environment: EnvironmentPlan | undefined;
  /** Effective token permissions (the workflow's or caller's when the job sets none). */
  readonly permissions: Permissions | undefined;
  /** `env:` tokens, outermost first (workflow, then job); the runner evaluates them. */
  readonly env: readonly TemplateToken[];
  /** `defaults:` tokens, outermost first. */
  readonly defaults: readonly TemplateToken[];
  /** Default 360. */
  readonly timeoutMinutes: number;
  /** Default 5. */
  readonly cancelTimeoutMinutes: number;
  readonly continueOnError: boolean;
  /** Partially evaluated (credentials and `env` stay for the runner). */
  readonly container: TemplateToken | undefined;
  readonly services: TemplateToken | undefined;
  /** `outputs:` tokens, evaluated by the runner at the end of the job. */
  readonly outputs: TemplateToken | undefined;
  readonly steps: readonly ConvertedStep[];
  /** Set for a calling job. */
  readonly call: CallPlan | undefined;
  readonly deferred: readonly DeferredField[];
}

export interface StrategySummary {
  readonly failFast: boolean;
  /** The declared limit, undefined for none. */
  readonly maxParallel: number | undefined;
  readonly total: number;
}

/** One `jobs.<id>` entry, expanded. */
export interface PlannedJob {
  readonly key: string;
  readonly path: string;
  readonly kind: 'job' | 'call';
  /** `name:` when it is literal, else the key; with the caller's prefix. */
  readonly displayName: string;
  /** `needs:` as written (keys of the same workflow file). */
  readonly needs: readonly string[];
  /** Job paths this job waits for: its `needs`, or for a called job without any, its caller's. */
  readonly waitsFor: readonly string[];
  /**
   * The `if:` condition as GitHub's parser keeps it: `success() && (<condition>)` unless it calls
   * a status function, `success()` when there is none (what `evaluateJobIf` takes).
   */
  readonly if: string;
  /** Undefined while the strategy waits for `needs` (or when it is not valid: see `errors`). */
  readonly strategy: StrategySummary | undefined;
  /** Whether the instances come from a matrix (then their ids end in `[i]`). */
  readonly matrix: boolean;
  readonly instances: readonly JobInstance[];
  /** Job-level fields left for later (`strategy`); the instances then stand in for the real ones. */
  readonly deferred: readonly DeferredField[];
  readonly errors: readonly PlanError[];
  /** What `expandJob` needs to expand this job again once its `needs` are done. */
  readonly template: ConvertedWorkflowJob;
  readonly scope: JobScope;
}

/** Everything around a job that its expansion reads; the plan hands it to `expandJob`. */
export interface JobScope {
  readonly github: GithubContext;
  readonly vars: VarsContext;
  /** The `inputs` context; undefined when a caller's `with:` waits for `needs`. */
  readonly inputs: InputsContext | undefined;
  /** Prefix of job paths and ids (`release[1]/`), '' at the top. */
  readonly idPrefix: string;
  /** Prefix of display names (`release (prod) / `), '' at the top. */
  readonly namePrefix: string;
  /** Job paths every job of this workflow file waits for (the caller's); empty at the top. */
  readonly waitsFor: readonly string[];
  readonly env: readonly TemplateToken[];
  readonly defaults: readonly TemplateToken[];
  /** Secret names this workflow file can read; undefined when unknown. */
  readonly secretNames: readonly string[] | undefined;
  readonly fileTable: readonly string[];
}

/** Whether the event runs the workflow; `undetermined` when the event lacks what a filter needs. */
export type TriggerCheck = TriggerResult | { readonly status: 'undetermined'; readonly reason: string };

export interface WorkflowPlan {
  /** The workflow's `name:`, else its path. */
  readonly name: string;
  readonly path: string;
  readonly event: string;
  readonly trigger: TriggerCheck;
  readonly github: GithubContext;
  readonly inputs: InputsContext;
  /** `run-name:` evaluated; undefined without one (GitHub then shows its default title). */
  readonly runName: string | undefined;
  readonly concurrency: ConcurrencyPlan | undefined;
  readonly permissions: Permissions | undefined;
  readonly defaults: TemplateToken | undefined;
  readonly env: TemplateToken | undefined;
  /** The top-level jobs in file order; called workflows' jobs are inside their callers. */
  readonly jobs: readonly PlannedJob[];
  /** Jobs that run on a runner (matrix instances counted, callers not). */
  readonly jobCount: number;
  readonly errors: readonly PlanError[];
  /**
   * The `workflow_dispatch` inputs the event brought do not fit the declared ones (a required
   * one missing, a value of the wrong type, an unexpected one the caller refuses): GitHub refuses
   * such a dispatch (422) and creates no run. The plan is made as if no input was given.
   */
  readonly inputErrors: readonly string[];
  /** Things worth telling that do not stop the run (a called workflow not loaded, ...). */
  readonly warnings: readonly string[];
}
