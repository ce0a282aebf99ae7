/**
 * The action-handler contract: what the worker hands a handler for one step and what it gets
 * back. README.md in this folder is the prose version; keep both in step.
 */

import type { StepHost } from './step-host.js';

/** Where a step's code comes from (the job message's `reference`, RUNNER-PROTOCOL.md §3.4). */
export type ActionReference =
  | { readonly kind: 'script' }
  | {
      readonly kind: 'repository';
      /** `owner/repo`; empty for a local action (`repositoryType: self`). */
      readonly name: string;
      readonly ref: string;
      /** Sub-directory (`./path` for local actions). */
      readonly path: string;
      /** `GitHub` (download), `self` (the workspace), `selfRepository` (`uses: $/path`), ... */
      readonly repositoryType: string;
    }
  | { readonly kind: 'container'; readonly image: string };

/** The `pre`, `main` and `post` stages of an action (a `run:` step only has `main`). */
export type ActionStage = 'pre' | 'main' | 'post';

/**
 * What the step's code is, once resolved: `using` selects the handler (`run` for `run:` steps,
 * `runs.using` of an action's metadata otherwise: `node20`, `node24`, `composite`, `docker`).
 */
export interface ResolvedAction {
  readonly using: string;
  /** The action's files on disk (absent for `run:` steps). */
  readonly directory?: string;
  /** The parsed action metadata, as the resolver that produced it models it. */
  readonly manifest?: unknown;
  /**
   * Set when the action has a `pre:` (or `pre-entrypoint:`) stage: the worker plans a `Pre <name>`
   * step (stage `pre`) after "Set up job", before the main steps, run when this `pre-if` holds
   * (as written; `always()` when the action gives none).
   */
  readonly pre?: { readonly condition: string };
}

/**
 * Resolves a `uses:` reference (download, read `action.yml`, pull an image, ...). The worker has
 * none built in: without one every `uses:` step fails with `not_implemented: <kind> actions`.
 */
export interface ActionResolver {
  resolve(reference: Exclude<ActionReference, { kind: 'script' }>, context: ResolveContext): Promise<ResolvedAction>;
}

export interface ResolveContext {
  readonly directories: Directories;
  readonly log: StepLog;
  readonly signal: AbortSignal;
  /** Where remote actions are resolved and downloaded (§5.5); without it, remote actions fail saying so. */
  readonly server?: ActionServer;
  /**
   * Every `uses:` reference of the job, in step order: a resolver may resolve all of them in one
   * batch on the first call (the runner's "Prepare all required actions").
   */
  readonly references?: readonly ActionReference[];
  /** Registers a secret (a download token the server hands out). */
  addMask?(value: string): void;
}

/** The job's server, as action resolution needs it (RUNNER-PROTOCOL.md §5.5, from the job message). */
export interface ActionServer {
  /** `legacy` (`…/plans/{planId}/actiondownloadinfo`) or `run-service` (`…/runnerresolve/actions`). */
  readonly mode: 'legacy' | 'run-service';
  /** SystemVssConnection `url`. */
  readonly url: string;
  /** The job access token. */
  readonly accessToken: string;
  readonly planId: string;
  /** `plan.scopeIdentifier` and `plan.planType` (the VSS route's `hubName`). */
  readonly scopeIdentifier: string;
  readonly hubName: string;
  readonly jobId: string;
  /** `system.github.launch_endpoint` (run-service mode). */
  readonly launchUrl?: string;
  /** `system.github.token`: the download token when the answer carries none. */
  readonly githubToken?: string;
  /** The message's `dependencies` (lockfile pins), forwarded as `actions_dependencies`. */
  readonly dependencies?: readonly string[];
  /** `job.workflow_repository` and `job.workflow_sha` when `actions_self_repository` is on (`uses: $/path`). */
  readonly selfRepository?: { readonly name: string; readonly sha: string };
}

/** The runner's directories for this job (absolute paths). */
export interface Directories {
  /** `github.workspace`: `<root>/_work/<repo>/<repo>`, the default working directory. */
  readonly workspace: string;
  /** `runner.temp` (`_work/_temp`), emptied at the start and the end of each job. */
  readonly temp: string;
  /** `_work/_actions`, where downloaded actions live. */
  readonly actions: string;
  /** `runner.tool_cache`: `RUNNER_TOOL_CACHE` (or `RUNNER_TOOLSDIRECTORY`, `AGENT_TOOLSDIRECTORY`) of the runner, else `_work/_tool`. */
  readonly tools: string;
}

/** Annotation details of `::error file=…,line=…::` and friends (RUNNER-PROTOCOL.md §4.7). */
export interface AnnotationProperties {
  readonly file?: string;
  readonly line?: number;
  readonly col?: number;
  readonly endLine?: number;
  readonly endColumn?: number;
  readonly title?: string;
}

/**
 * The step's log. Every line is masked before it leaves the process; nothing a handler writes
 * here can leak a registered secret.
 */
export interface StepLog {
  /**
   * A line the step's process printed (stdout or stderr): workflow commands (`::set-output`,
   * `::add-mask`, `::error`, ...) take effect, problem matchers run, and the line is logged as
   * the command interpreter shows it. Problem matchers keep separate progress per stream, as the
   * runner's (one OutputManager for stdout, one for stderr).
   */
  processLine(line: string, stream?: 'stdout' | 'stderr'): void;
  /** A line of the handler's own (a header, a script line): logged as is, never interpreted. */
  write(line: string): void;
  /** Shown only with step debug logging on (`ACTIONS_STEP_DEBUG`). */
  debug(message: string): void;
  /** An annotation on the step and a `##[error]`/`##[warning]`/`##[notice]` line. */
  error(message: string, properties?: AnnotationProperties): void;
  warning(message: string, properties?: AnnotationProperties): void;
  notice(message: string, properties?: AnnotationProperties): void;
}

/** The step as the job message describes it. */
export interface StepInfo {
  /** The step's timeline record id (a GUID). */
  readonly id: string;
  /** The id in the `steps` context (`__run`, `__run_2`, or the user's `id:`). */
  readonly contextName: string;
  /** Internal name (`__run`, `__actions_checkout`): `GITHUB_ACTION`. */
  readonly name: string;
  readonly displayName: string;
  readonly reference: ActionReference;
}

/** A post step an action asks for (its `post:` / `post-entrypoint:`); it runs after all main steps. */
export interface PostStepRequest {
  readonly displayName: string;
  /** The `post-if` condition (`always()` when the action gives none). */
  readonly condition: string;
  readonly action: ResolvedAction;
}

/**
 * Everything a handler gets. Environment layers are kept apart so each handler can build its
 * process environment the way the official runner does for its kind (`processEnvironment`
 * builds the common part).
 */
export interface HandlerContext {
  readonly step: StepInfo;
  readonly stage: ActionStage;
  readonly action: ResolvedAction;
  /** Evaluated inputs: `with:` for actions; `script`, `shell`, `workingDirectory` for `run:`. */
  readonly inputs: Readonly<Record<string, string>>;
  /** The `env` context: workflow and job `env:`, `$GITHUB_ENV` of earlier steps, the step's `env:`. */
  readonly environment: Readonly<Record<string, string>>;
  /**
   * What the runner exposes from its contexts: `GITHUB_*` (from `github`, including the
   * file-command paths `GITHUB_ENV`, `GITHUB_OUTPUT`, `GITHUB_PATH`, `GITHUB_STATE`,
   * `GITHUB_STEP_SUMMARY`), `RUNNER_*` (from `runner`), and the OIDC pair when the job may ask
   * for an id token. Given to every kind of step.
   */
  readonly runtimeEnvironment: Readonly<Record<string, string>>;
  /**
   * `ACTIONS_RUNTIME_URL`, `ACTIONS_RUNTIME_TOKEN`, `ACTIONS_CACHE_URL`, `ACTIONS_RESULTS_URL`,
   * ... (RUNNER-PROTOCOL.md §5.1): for JavaScript and container actions only, never for `run:`.
   */
  readonly actionsRuntime: Readonly<Record<string, string>>;
  /** `$GITHUB_PATH` entries, the most recent first (prepend them to `PATH` in this order). */
  readonly prependPath: readonly string[];
  /** `defaults.run` of the job (root-level steps only; empty inside composite actions). */
  readonly defaults: { readonly shell?: string; readonly workingDirectory?: string };
  /** The expression contexts as plain data (`github`, `env`, `steps`, `runner`, ...). */
  readonly contexts: Readonly<Record<string, unknown>>;
  /** `save-state` values of this action's earlier stages (exported as `STATE_<name>`). */
  readonly state: Readonly<Record<string, string>>;
  readonly directories: Directories;
  readonly platform: NodeJS.Platform;
  /**
   * Where `run:` scripts and JavaScript actions run: absent on the runner's machine; the job
   * container's step host (`jobs.<id>.container`) otherwise. Paths in the context stay host paths;
   * the handler translates what it hands the process (`toStepPath`).
   */
  readonly stepHost?: StepHost;
  readonly log: StepLog;
  /**
   * Aborted when the step must stop: the job was cancelled or the step timed out. A handler
   * stops its process (`runProcess` does SIGINT, SIGTERM, SIGKILL) and returns promptly.
   */
  readonly signal: AbortSignal;
  /** Registers a secret: from now on it is masked in every log line. */
  addMask(value: string): void;
  /** Queues a post step for this action (stage `post`, same inputs and state). */
  registerPostStep(request: PostStepRequest): void;
}

/** `succeeded`, `failed` or `canceled`; `continue-on-error` is applied by the worker afterwards. */
export type HandlerOutcome = 'succeeded' | 'failed' | 'canceled';

export interface HandlerResult {
  readonly outcome: HandlerOutcome;
  /**
   * Outputs the handler computed itself (a composite action's `outputs:`). Outputs a process
   * writes (`$GITHUB_OUTPUT`, `::set-output`) reach the `steps` context without this.
   */
  readonly outputs?: Readonly<Record<string, string>>;
}

/** Runs one stage of one step. Must not throw for a step that merely failed: return `failed`. */
export interface ActionHandler {
  run(context: HandlerContext): Promise<HandlerResult>;
}
