import { createServiceRef } from '../kernel/index.js';

/**
 * The contract between the runner boundary (which mints job tokens and plans jobs) and the
 * services actions reach with those tokens (cache, artifacts, OIDC): the `runtime-services`
 * plugin cannot import `runner-protocol`, so `runner-protocol` provides this service and
 * `runtime-services` depends on it.
 */

/** `ACTIONS_CACHE_MODE` (runner 2.336+, `@actions/cache` 6): what a job may do with the cache. */
export type CacheMode = 'none' | 'read' | 'write' | 'write-only';

/** The job an `ACTIONS_RUNTIME_TOKEN` names, verified and still running. */
export interface RuntimeJob {
  /** Engine run id: artifacts are visible across the run's jobs and attempts. */
  readonly runId: number;
  /** Engine job row id. */
  readonly jobId: number;
  readonly attempt: number;
  /** The job message's plan id: the `workflow_run_backend_id` of the token's `Actions.Results` scope. */
  readonly planId: string;
  /** The job message's job id: the `workflow_job_run_backend_id` of that scope. */
  readonly jobRecordId: string;
  /** The token's `scp` claim, split. */
  readonly scopes: readonly string[];
  /** Epoch ms. */
  readonly expiresAt: number;
}

/** The workflow file that defines a job (a called workflow's for a job of a reusable workflow). */
export interface JobWorkflowFile {
  readonly repository: string;
  readonly path: string;
  readonly ref: string;
  readonly sha: string;
}

/** What the runtime services need to know about a job beyond its token: its run and its plan. */
export interface RuntimeJobContext {
  /** `owner/name`. */
  readonly repository: string;
  /** `github.ref` (`refs/heads/main`, `refs/pull/7/merge`, `refs/tags/v1`). */
  readonly ref: string;
  readonly sha: string;
  readonly eventName: string;
  /** `refs/heads/<default branch>` when the event's repository names one. */
  readonly defaultBranchRef: string | undefined;
  /** `refs/heads/<base>` of a pull request event. */
  readonly baseRef: string | undefined;
  /** The mode the job message gave the runner (`actions_cache_mode`); enforced by the cache service. */
  readonly cacheMode: CacheMode;
  /**
   * The job's token permissions (scope -> level) as its job message gave them: the workflow's, or
   * GitHub's restricted default set, capped by the operator's `[token_permissions_ceiling]`.
   */
  readonly permissions: Readonly<Record<string, string>>;
  /** `environment:` name of the job. */
  readonly environment: string | undefined;
  readonly jobWorkflow: JobWorkflowFile;
  /** The string members of the job's `github` context (`github.server_url`, `actor_id`, ...). */
  readonly github: Readonly<Record<string, string>>;
  /** `runner.environment`: `self-hosted` here. */
  readonly runnerEnvironment: string;
}

export interface RuntimeJobs {
  /**
   * The job of a runtime token. Throws `AuthError` when the token is not a valid, unexpired job
   * token, or when its job is over (finished, re-run, gone): a token opens its job's services
   * only while that attempt runs.
   */
  verify(token: string): Promise<RuntimeJob>;
  /** The job's run and plan facts (the job planned again, as its message was built). */
  describe(job: RuntimeJob): Promise<RuntimeJobContext>;
  /**
   * Throws `AuthError` (401 `job_token_expired`) unless this attempt of the job still runs: what a
   * credential minted for a job that is not its token (a signed upload URL) checks on every write.
   */
  requireLive(attempt: { readonly runId: number; readonly jobId: number; readonly attempt: number }): Promise<void>;
}

/**
 * What a route group that takes job tokens declares (`acceptsCredential` of the kernel), so the
 * route table lists every route a job token opens: the finished-job test walks them all.
 */
export const JOB_TOKEN_CREDENTIAL = 'job-token';

/** Provided by `runner-protocol`. */
export const runtimeJobsServiceRef = createServiceRef<RuntimeJobs>({ id: 'runner-protocol.runtimeJobs' });
