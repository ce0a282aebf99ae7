/** The inputs of the job-message builder and what `planFor` gives it. */
import type { Assignment } from '../../../core/engine/index.js';
import type { JobInstance, NeedsContext, PlannedJob, WorkflowPlan } from '../../../core/workflow/index.js';
import type { CappedScope } from './token-ceiling.js';

/** The file that defines a job: the run's workflow, or a workflow it calls. */
export interface WorkflowSource {
  /** `owner/name`. */
  readonly repository: string;
  /** Path in that repository (`.github/workflows/ci.yml`). */
  readonly path: string;
  /** The ref it was read at (`refs/heads/main`; for a remote call, `refs/tags/v1`, `refs/heads/main` or the sha its `@ref` named). */
  readonly ref: string;
  /** The commit it was read at (the ref itself for a remote call of a run that kept no commit). */
  readonly sha: string;
  /** False for the run's own workflow file. */
  readonly called: boolean;
}

/** One job of a run, planned again from the run's files: what the message is built from. */
export interface JobPlan {
  readonly workflow: WorkflowPlan;
  readonly job: PlannedJob;
  /** Its `permissions` are the token's: the operator's ceiling applied (token-ceiling.ts). */
  readonly instance: JobInstance;
  /** The scopes the ceiling lowered (logged when the job is handed out); empty when none. */
  readonly cappedPermissions: readonly CappedScope[];
  /** Every file of the run, the entry first (token `file` ids index into it, 1-based). */
  readonly fileTable: readonly string[];
  readonly source: WorkflowSource;
}

/** This server's addresses, as the runner is to use them. */
export interface ServerUrls {
  /**
   * The runner-facing base the Worker talks to (SystemVssConnection `url`): the VSS base for
   * `PipelineAgentJobRequest`, the run-service base (`completejob`, `renewjob`) for
   * `RunnerJobRequest`. A trailing `/` is added when missing (relative resolution needs it).
   */
  readonly api: string;
  /** `SVC_PUBLIC_URL`: `github.server_url`, and the default origin of the results and launch services. */
  readonly publicUrl: string;
  /** Results service base (Twirp at its root); default `<publicUrl origin>/`. */
  readonly results?: string;
  /** Cache v1 base (`_apis/artifactcache/...` appended); default `<publicUrl origin>/`. */
  readonly cache?: string;
  /** Live console WebSocket; default none (legacy runners then POST the feed). */
  readonly feedStream?: string;
  /** Launch service origin (run-service action resolution); default the public origin. */
  readonly launch?: string;
  /**
   * OIDC token endpoint base; default `<publicUrl origin>/_apis/oidc/idtoken`. Jobs granted
   * `id-token: write` get `<idToken>/<planId>/<jobId>?api-version=2.0`; others none.
   */
  readonly idToken?: string;
}

/** `PipelineAgentJobRequest`: legacy session flow; `RunnerJobRequest`: broker + run service. */
export type JobMessageType = 'PipelineAgentJobRequest' | 'RunnerJobRequest';

export interface JobMessageIds {
  readonly planId: string;
  readonly timelineId: string;
  readonly jobId: string;
}

/** A variable as the message carries it. */
export interface VariableValue {
  readonly value: string;
  readonly isSecret?: boolean;
}

export interface JobMessageInput {
  readonly assignment: Assignment;
  readonly plan: JobPlan;
  readonly serverUrls: ServerUrls;
  /** The job-scoped access token (a JWT minted for this job); the runner sends it as Bearer. */
  readonly accessToken: string;
  /** Default: derived from the run and job (message-ids.ts). */
  readonly ids?: Partial<JobMessageIds>;
  /** Default `PipelineAgentJobRequest`. */
  readonly messageType?: JobMessageType;
  /** `github.token` / `secrets.GITHUB_TOKEN`; default the access token (this server is the API). */
  readonly githubToken?: string;
  /** Secrets the job may read (name → value), already chosen by policy (job-secrets.ts); slots in a stored message. */
  readonly secrets?: Readonly<Record<string, string>>;
  /** The job's `vars` context (its environment's variables over the run's); default the plan's. */
  readonly vars?: Readonly<Record<string, string>>;
  /** Extra variables; they override the defaults (feature flags, `system.*`), never secrets. */
  readonly variables?: Readonly<Record<string, string | VariableValue>>;
  /** Results and outputs of the jobs this job needs (see `needsFromJobs`); default none. */
  readonly needs?: NeedsContext;
  /** Legacy job request id; default the job's row id (`0` for `RunnerJobRequest`, as github.com). */
  readonly requestId?: number;
  /** Default `Default`. */
  readonly runnerGroupName?: string;
  /** Echoed by the runner in `acquirejob`/`completejob`; default the repository owner. */
  readonly billingOwnerId?: string;
}
