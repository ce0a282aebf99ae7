import type { Engine } from '../../core/engine/index.js';
import { NotFoundError } from '../../core/kernel/index.js';
import type { RuntimeJob, RuntimeJobContext, RuntimeJobs } from '../../core/ports/index.js';
import type { ExpressionObject } from '../../core/workflow/index.js';
import type { JobAttempts, JobTokens } from './auth/index.js';
import { cacheModeFor, DEFAULT_TOKEN_PERMISSIONS, repositoryVisibility, type TokenCeiling } from './job-message/index.js';
import { planAssignment } from './messages/index.js';

export interface RuntimeJobsDeps {
  readonly engine: Engine;
  readonly jobTokens: JobTokens;
  /** The public URL the job messages are built with. */
  readonly publicUrl: () => string;
  readonly attempts: JobAttempts;
  /** The operator's `[token_permissions_ceiling]`: the permissions `describe` gives are capped as the job message's were. */
  readonly tokenCeiling: TokenCeiling | undefined;
}

/**
 * The `runtimeJobsServiceRef` service (core/ports/runtime-jobs.ts) other plugins reach jobs
 * through: job tokens verified here (auth/job-token.ts: the signature, then whether the attempt
 * is live, auth/job-attempts.ts; a finished job's token is a 401 `job_token_expired`), and the job's facts from its plan, planned
 * again as the job message was (so the cache mode, permissions and environment the runtime
 * services enforce are the ones the runner was given).
 */
export function createRuntimeJobs(deps: RuntimeJobsDeps): RuntimeJobs {
  return {
    async verify(token) {
      const claims = await deps.jobTokens.verifyJobToken(token);
      return {
        runId: claims.runId,
        jobId: claims.jobId,
        attempt: claims.attempt,
        planId: claims.planId,
        jobRecordId: claims.jobRecordId,
        scopes: claims.scopes,
        expiresAt: claims.expiresAt,
      };
    },
    async requireLive(attempt) {
      await deps.attempts.requireLive(attempt);
    },
    async describe(job: RuntimeJob): Promise<RuntimeJobContext> {
      const [run, record] = await Promise.all([deps.engine.getRun(job.runId), deps.engine.getJob(job.jobId)]);
      if (run === undefined || record === undefined) throw new NotFoundError(`run ${job.runId} has no job ${job.jobId}`, { code: 'job_not_found' });
      const [files, runJobs] = await Promise.all([deps.engine.runFiles(run.id), deps.engine.listJobs(run.id)]);
      const { plan } = await planAssignment({ run, job: record, files, leaseExpiresAt: 0 }, runJobs, { serverUrl: deps.publicUrl(), ceiling: deps.tokenCeiling });
      const github = plan.job.scope.github;
      const strings: Record<string, string> = {};
      for (const [key, value] of Object.entries(github)) if (typeof value === 'string') strings[key] = value;
      strings['repository_visibility'] = repositoryVisibility(github.event);
      strings['ref_protected'] = String(github.ref_protected);
      const defaultBranch = member(github.event, 'repository', 'default_branch');
      return {
        repository: run.repository,
        ref: github.ref,
        sha: github.sha,
        eventName: run.event,
        defaultBranchRef: defaultBranch === undefined ? undefined : `refs/heads/${defaultBranch}`,
        baseRef: github.base_ref === '' ? undefined : `refs/heads/${github.base_ref}`,
        cacheMode: cacheModeFor(plan.workflow.event),
        permissions: plan.instance.permissions ?? DEFAULT_TOKEN_PERMISSIONS,
        environment: plan.instance.environment?.name,
        jobWorkflow: { repository: plan.source.repository, path: plan.source.path, ref: plan.source.ref, sha: plan.source.sha },
        github: strings,
        runnerEnvironment: 'self-hosted',
      };
    },
  };
}

function member(object: ExpressionObject, ...path: readonly string[]): string | undefined {
  let current: unknown = object;
  for (const key of path) {
    if (typeof current !== 'object' || current === null || Array.isArray(current)) return undefined;
    current = (current as Record<string, unknown>)[key];
  }
  return typeof current === 'string' && current !== '' ? current : undefined;
}
