import type { Engine } from '../../core/engine/index.js';
import { NotFoundError, UnavailableError } from '../../core/kernel/index.js';
import type { RuntimeJob, RuntimeJobs, SnapshotHistory, SnapshotStore } from '../../core/ports/index.js';
import { tokenFromAuthorization } from './credentials.js';
import type { ForgeMirror } from './forge-mirror.js';

/** What a job may check out: its run's repository at its run's commit. */
export interface CheckoutTarget {
  readonly runId: number;
  /** `owner/name` as the run has it (the store's key), whatever casing the URL used. */
  readonly repository: string;
  readonly sha: string;
  /** `github.ref` of the run (`refs/heads/main`, `refs/tags/v1`, `refs/pull/7/merge`). */
  readonly ref: string;
}

/** Where the commit's objects are: the snapshot store (a local run) or the node's forge mirror (a forge run). */
export interface CheckoutSource {
  /** The bare repository holding the commit and its history. */
  readonly gitDir: string;
  /** The tags served with the commit and the shallow boundary, if any. */
  history(): Promise<SnapshotHistory>;
}

/** A target with the repository that holds it. */
export interface ResolvedCheckout extends CheckoutTarget {
  readonly source: CheckoutSource;
}

export interface CheckoutTargetDeps {
  readonly runtimeJobs: RuntimeJobs;
  readonly engine: Engine;
  readonly snapshots: SnapshotStore;
  /** `SVC_SNAPSHOT_RETENTION_SECS`, named when a snapshot is gone. */
  readonly retentionSecs: number;
  /** The forge mirror (forge-mirror.ts), when svc is connected to a forge; forge runs need it. */
  readonly forgeMirror: ForgeMirror | undefined;
}

export type ResolveCheckout = (authorization: string | undefined, owner: string, repo: string) => Promise<ResolvedCheckout>;

/**
 * Admits a request for `owner/repo`: the job token must name a running job (`AuthError`, 401,
 * otherwise), the repository must be its run's (any casing; another one is a plain 404 that does
 * not tell whether it exists), the job's permissions must grant `contents: read` unless the
 * repository is public (a 404, as GitHub answers). A local run's commit must be in the snapshot
 * store (a pruned one is a 404 naming the retention); a forge run's commit is fetched into the
 * node's forge mirror when it is not there yet (forge-mirror.ts: 404 `commit_not_found`, 503
 * `forge_unavailable`), which needs a forge to be configured (503 `forge_not_configured` otherwise).
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
    if (await deps.snapshots.hasCommit(run.repository, run.sha)) {
      const gitDir = deps.snapshots.repositoryPath(run.repository);
      return { ...target, source: { gitDir, history: () => deps.snapshots.history(run.repository, run.sha) } };
    }
    if (run.trigger === 'local') {
      throw new NotFoundError(
        `snapshot ${run.sha} of run ${run.id} (${run.repository}) is no longer kept: snapshots are pruned ${deps.retentionSecs} s after submission (SVC_SNAPSHOT_RETENTION_SECS); run it again`,
        { code: 'snapshot_pruned', details: { repository: run.repository, sha: run.sha, retentionSecs: deps.retentionSecs } },
      );
    }
    const mirror = deps.forgeMirror;
    if (mirror === undefined) {
      throw new UnavailableError(
        `run ${run.id} came from the forge (${run.trigger}), but svc is not connected to one: set SVC_FORGE_API_URL (and SVC_FORGE_TOKEN for private repositories) so the relay can fetch ${run.repository}@${run.sha}`,
        { code: 'forge_not_configured', details: { repository: run.repository, sha: run.sha } },
      );
    }
    const gitDir = await mirror.ensure(run.repository, run.sha, run.ref);
    return { ...target, source: { gitDir, history: () => mirror.history(run.repository, run.sha) } };
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
