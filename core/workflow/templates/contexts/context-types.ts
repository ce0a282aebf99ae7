/**
 * The contexts of a workflow run as GitHub documents them ("Contexts reference"), with the
 * property names and value types it uses (ids and counters of `github` are strings,
 * `strategy` numbers are numbers). All of them are plain JSON, so they go to expressions as they
 * are; `toExpressionContexts` drops the absent ones.
 */
import type { ExpressionContexts, ExpressionObject, ExpressionValue, JobResult, JobStatus } from '../../expressions/index.js';
import type { StrategyContext } from '../../matrix/index.js';

/**
 * `strategy`: the matrix module's StrategyContext (`fail-fast`, `job-index`, `job-total`,
 * `max-parallel`) as a plain object type, so it goes to expressions as it is.
 */
export type StrategyContextData = { readonly [K in keyof StrategyContext]: StrategyContext[K] };

/** `github`: the run and the event that triggered it. */
export type GithubContext = {
  readonly event_name: string;
  /** The webhook payload of the event. */
  readonly event: ExpressionObject;
  readonly ref: string;
  readonly ref_name: string;
  readonly ref_type: 'branch' | 'tag' | '';
  readonly ref_protected: boolean;
  readonly sha: string;
  /** Pull request events only; '' otherwise. */
  readonly base_ref: string;
  readonly head_ref: string;
  readonly repository: string;
  readonly repository_id: string;
  readonly repository_owner: string;
  readonly repository_owner_id: string;
  readonly repositoryUrl: string;
  readonly actor: string;
  readonly actor_id: string;
  readonly triggering_actor: string;
  readonly run_id: string;
  readonly run_number: string;
  readonly run_attempt: string;
  readonly retention_days: string;
  readonly workflow: string;
  readonly workflow_ref: string;
  readonly workflow_sha: string;
  readonly server_url: string;
  readonly api_url: string;
  readonly graphql_url: string;
  readonly secret_source: string;
  // Set by the runner while it executes the job (absent before).
  readonly job?: string;
  readonly token?: string;
  readonly workspace?: string;
  readonly action?: string;
  readonly action_path?: string;
  readonly action_ref?: string;
  readonly action_repository?: string;
  readonly action_status?: string;
  readonly event_path?: string;
  readonly env?: string;
  readonly path?: string;
};

export type StringMap = { readonly [name: string]: string };

/** `env`, `vars`: names to values. `secrets` also holds `github_token`. */
export type EnvContext = StringMap;
export type VarsContext = StringMap;
export type SecretsContext = StringMap;

/** `inputs` of `workflow_dispatch` and `workflow_call` (and actions): typed by their declaration. */
export type InputsContext = { readonly [name: string]: string | number | boolean };

/** `matrix`: the job's combination (null for a job without a matrix). */
export type MatrixContext = ExpressionObject | null;

/** A step's result: `success`, `failure`, `cancelled` or `skipped`. */
export type StepConclusion = JobResult;

/** `steps.<step_id>`. */
export type StepContext = {
  readonly outputs: StringMap;
  /** Before `continue-on-error` is applied. */
  readonly outcome: StepConclusion;
  /** After `continue-on-error` is applied. */
  readonly conclusion: StepConclusion;
};
export type StepsContext = { readonly [stepId: string]: StepContext };

/** `needs.<job_id>` and, in reusable workflows, `jobs.<job_id>`. */
export type JobOutcomeContext = {
  readonly result: JobResult;
  readonly outputs: StringMap;
};
export type NeedsContext = { readonly [jobId: string]: JobOutcomeContext };
export type JobsContext = NeedsContext;

export type ContainerContext = { readonly id?: string; readonly network?: string };
export type ServiceContext = {
  readonly id: string;
  readonly network: string;
  /** Container port → host port. */
  readonly ports: StringMap;
};

/** `job`: the running job. */
export type JobContext = {
  readonly status: JobStatus;
  readonly container?: ContainerContext;
  readonly services?: { readonly [serviceId: string]: ServiceContext };
  readonly check_run_id?: number;
  readonly workflow_ref?: string;
  readonly workflow_sha?: string;
  readonly workflow_repository?: string;
  readonly workflow_file_path?: string;
};

export type RunnerOs = 'Linux' | 'Windows' | 'macOS';
export type RunnerArch = 'X86' | 'X64' | 'ARM' | 'ARM64';

/** `runner`: the machine running the job. */
export type RunnerContext = {
  readonly name: string;
  readonly os: RunnerOs;
  readonly arch: RunnerArch;
  readonly temp: string;
  readonly tool_cache: string;
  /** Present, and `1`, only when debug logging is on. */
  readonly debug?: '1';
  readonly environment: 'github-hosted' | 'self-hosted';
  /** Undocumented but set by the runner; kept for compatibility. */
  readonly workspace?: string;
};

/** Every context of one evaluation; absent ones are simply not there. */
export type WorkflowContexts = {
  readonly github: GithubContext;
  readonly env?: EnvContext;
  readonly vars?: VarsContext;
  readonly secrets?: SecretsContext;
  readonly inputs?: InputsContext;
  readonly matrix?: MatrixContext;
  readonly strategy?: StrategyContextData;
  readonly needs?: NeedsContext;
  readonly steps?: StepsContext;
  readonly job?: JobContext;
  readonly jobs?: JobsContext;
  readonly runner?: RunnerContext;
};

/** The contexts as the expression layer takes them. */
export function toExpressionContexts(contexts: WorkflowContexts): ExpressionContexts {
  const result: Record<string, ExpressionValue> = {};
  for (const [name, value] of Object.entries(contexts)) {
    if (value !== undefined) result[name] = value;
  }
  return result;
}
