import type { Engine } from '../../core/engine/index.js';
import { NotFoundError, NotImplementedError } from '../../core/kernel/index.js';
import type { RuntimeJob, RuntimeJobs, SnapshotStore } from '../../core/ports/index.js';
import { tokenFromAuthorization } from './credentials.js';

/** What a job may check out: its run's repository at its run's commit. */
export interface CheckoutTarget {
  readonly runId: number;
  /** `owner/name` as the run has it (the store's key), whatever casing the URL used. */
  readonly repository: string;
  readonly sha: string;
  /** `github.ref` of the run (`refs/heads/main`, `refs/tags/v1`, `refs/pull/7/merge`). */
  readonly ref: string;
}

export interface CheckoutTargetDeps {
  readonly runtimeJobs: RuntimeJobs;
  readonly engine: Engine;
  readonly snapshots: SnapshotStore;
  /** `SVC_SNAPSHOT_RETENTION_SECS`, named when a snapshot is gone. */
  readonly retentionSecs: number;
}

export type ResolveCheckout = (authorization: string | undefined, owner: string, repo: string) => Promise<CheckoutTarget>;

/**
 * Admits a request for `owner/repo`: the job token must name a running job (`AuthError`, 401,
 * otherwise), the repository must be its run's (any casing; another one is a plain 404 that does
 * not tell whether it exists), the job's permissions must grant `contents: read` unless the
 * repository is public (a 404, as GitHub answers), and the run's commit must be in the snapshot store. A local run
 * whose snapshot was pruned is a 404 naming the retention; a forge run's commit was never there
 * (its jobs fetch from the forge), which the relay does not proxy: 501.
 */
export function checkoutTargets(deps: CheckoutTargetDeps): ResolveCheckout {
  return async (authorization, owner, repo) => {
    const job = await deps.runtimeJobs.verify(tokenFromAuthorization(authorization));
    const run = await deps.engine.getRun(job.runId);
    const asked = `${owner}/${stripGitSuffix(repo)}`;
    if (run === undefined || run.repository.toLowerCase() !== asked.toLowerCase()) {
      const scope = run === undefined ? '' : `: this job's token reaches only its run's repository, ${run.repository}; check out other repositories from their forge`;
      throw new NotFoundError(`repository ${asked} not found${scope}`, { code: 'repository_not_found' });
    }
    await requireContentsRead(deps.runtimeJobs, job, run.repository);
    const target: CheckoutTarget = { runId: run.id, repository: run.repository, sha: run.sha, ref: run.ref };
    if (await deps.snapshots.hasCommit(run.repository, run.sha)) return target;
    if (run.trigger === 'local') {
      throw new NotFoundError(
        `snapshot ${run.sha} of run ${run.id} (${run.repository}) is no longer kept: snapshots are pruned ${deps.retentionSecs} s after submission (SVC_SNAPSHOT_RETENTION_SECS); run it again`,
        { code: 'snapshot_pruned', details: { repository: run.repository, sha: run.sha, retentionSecs: deps.retentionSecs } },
      );
    }
    throw new NotImplementedError('checkout relay for forge runs', {
      details: {
        repository: run.repository,
        sha: run.sha,
        hint: `run ${run.id} came from the forge (${run.trigger}); its commit is not in the snapshot store: check out from the forge (actions/checkout with github-server-url and a forge token)`,
      },
    });
  };
}

/**
 * A token reads a repository that is not public only with `contents: read` (or write), as on
 * GitHub, where such a checkout fails with "Repository not found". The permissions are the job
 * message's: the workflow's (or the default set) under the operator's token ceiling.
 */
async function requireContentsRead(runtimeJobs: RuntimeJobs, job: RuntimeJob, repository: string): Promise<void> {
  const context = await runtimeJobs.describe(job);
  if (context.github['repository_visibility'] === 'public') return;
  const level = context.permissions['contents'];
  if (level === 'read' || level === 'write') return;
  throw new NotFoundError(
    `repository ${repository} not found: this job's token lacks 'contents: read' (add it to the job's or the workflow's permissions; the operator's [token_permissions_ceiling] may also lower it)`,
    { code: 'repository_not_found' },
  );
}

/** `app.git` → `app` (git URLs may carry the suffix). */
export function stripGitSuffix(repo: string): string {
  return repo.endsWith('.git') ? repo.slice(0, -'.git'.length) : repo;
}
