/**
 * Repositories of other owners that runs take code from: remote actions (`uses: owner/repo@ref`
 * in a step) and remote reusable workflows (`uses: owner/repo/.github/workflows/x.yml@ref` in a
 * job). The kernel opens them from its configuration, the local mirror (`SVC_ACTIONS_MIRROR_DIR`)
 * first, then the forge's REST API (`SVC_FORGE_API_URL` / `SVC_FORGE_TOKEN`), and hands them to
 * every plugin (`coreServices.remoteRepositories`): the runner boundary downloads actions through
 * them, local submissions read called workflows through them.
 *
 * A source says "not here" with a `missing` reason worded for the user (it ends up in a runner's
 * log or in an answer to `svc run`); a source that fails (the forge down, git broken) throws.
 */

export type ArchiveFormat = 'tar.gz' | 'zip';

/** A ref resolved to its commit, or why this source cannot. */
export type RefResolution = { readonly sha: string } | { readonly missing: string };

export interface RepositorySource {
  readonly kind: 'mirror' | 'forge';
  /** Names the source in messages that reach jobs (`the mirror`, `the forge at https://…`). */
  readonly label: string;
  /** Where it is, for the operator (`the mirror at /srv/actions (SVC_ACTIONS_MIRROR_DIR)`). */
  readonly location: string;
  /** The commit `ref` (a tag, a branch, or a commit sha; a tag wins over a branch of the same name) names in `owner/repo`. */
  resolve(nameWithOwner: string, ref: string): Promise<RefResolution>;
  /**
   * How GitHub spells the ref `resolve` answered `sha` for, in `job_workflow_ref`: `refs/tags/<ref>`
   * for a tag, `refs/heads/<ref>` for a branch, else the commit sha.
   */
  refName(nameWithOwner: string, ref: string, sha: string): Promise<string>;
  /** A file's text at a commit `resolve` answered; undefined when the commit has no such file. */
  readFile(nameWithOwner: string, sha: string, path: string): Promise<string | undefined>;
  /** The archive of a commit `resolve` answered, with one top-level directory. */
  archive(nameWithOwner: string, sha: string, format: ArchiveFormat): Promise<Buffer>;
}

/** The first source holding a ref, with its commit; or every source's reason why not. */
export type Located = { readonly source: RepositorySource; readonly sha: string } | { readonly missing: readonly string[] };

export interface RemoteRepositories {
  /** In order of preference; empty when neither a mirror nor a forge is configured. */
  readonly sources: readonly RepositorySource[];
  /** Asks the sources in order for `owner/repo` at `ref`. */
  locate(nameWithOwner: string, ref: string): Promise<Located>;
}

const NAME = /^[A-Za-z0-9_.-]+$/;

/** `owner` and `repo` of a `nameWithOwner`, or undefined when it is not two plain path segments. */
export function splitRepositoryName(nameWithOwner: string): { readonly owner: string; readonly repo: string } | undefined {
  const [owner, repo, ...rest] = nameWithOwner.split('/');
  if (owner === undefined || repo === undefined || rest.length > 0) return undefined;
  if (!NAME.test(owner) || !NAME.test(repo) || owner.startsWith('.') || repo.startsWith('.')) return undefined;
  return { owner, repo };
}
