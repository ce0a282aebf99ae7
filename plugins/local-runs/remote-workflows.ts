/**
 * Remote reusable workflows of a local submission (`uses: owner/repo/.github/workflows/x.yml@ref`),
 * read where remote actions come from: the kernel's remote repositories, the local mirror
 * (`SVC_ACTIONS_MIRROR_DIR`), then the forge (`SVC_FORGE_API_URL`). The ref (a tag, a branch, or a
 * commit sha; a tag wins over a branch of the same name) is resolved once per submission and
 * repository, so `./` calls inside a called workflow, which GitHub reads from the same commit,
 * get the same commit; the run keeps each file with that commit (a re-run reads nothing again).
 *
 * Every `uses:` a workflow declares is admitted, as actions are; nested calls are bounded by the
 * parser's limits (10 levels, 50 files). What cannot be read is an error naming what was looked
 * up and where: 404 for a repository, ref or file no source has, 422 for a reference GitHub
 * refuses, 501 when no source is configured, and the source's own 502/503 when it fails.
 */
import type { SelectedWorkflowFile, WorkflowCommit } from '../../core/engine/index.js';
import { NotFoundError, NotImplementedError, ValidationError } from '../../core/kernel/index.js';
import type { RemoteRepositories, RepositorySource } from '../../core/ports/index.js';

/** A called workflow of another repository, as the parser asks for it. */
export interface RemoteWorkflowRef {
  readonly repository: string;
  readonly path: string;
  readonly ref: string;
}

export type RemoteWorkflowReader = (ref: RemoteWorkflowRef) => Promise<SelectedWorkflowFile>;

interface Pinned {
  readonly source: RepositorySource;
  readonly commit: WorkflowCommit;
}

/** GitHub reads reusable workflows from `.github/workflows` itself, not from sub-directories. */
const WORKFLOW_PATH = /^\.github\/workflows\/[^/]+\.ya?ml$/;

/** Reads remote called workflows for one submission (its pins live as long as the reader). */
export function remoteWorkflowReader(repositories: RemoteRepositories): RemoteWorkflowReader {
  const pins = new Map<string, Promise<Pinned>>();
  const pin = (ref: RemoteWorkflowRef, uses: string): Promise<Pinned> => {
    const key = `${ref.repository.toLowerCase()}@${ref.ref}`;
    let pinned = pins.get(key);
    if (pinned === undefined) {
      pinned = resolve(repositories, ref, uses);
      pins.set(key, pinned);
    }
    return pinned;
  };
  return async (ref) => {
    const uses = `${ref.repository}/${ref.path}@${ref.ref}`;
    checkReference(ref, uses);
    if (repositories.sources.length === 0) throw noSource(uses);
    const { source, commit } = await pin(ref, uses);
    const content = await source.readFile(ref.repository, commit.sha, ref.path);
    if (content === undefined) {
      throw new NotFoundError(`uses: ${uses}: ${ref.repository} at '${ref.ref}' (commit ${commit.sha} in ${source.location}) has no file ${ref.path}`, {
        code: 'reusable_workflow_not_found',
        details: { repository: ref.repository, path: ref.path, ref: ref.ref, sha: commit.sha, looked_up: [source.location] },
      });
    }
    return { name: uses, content, commit };
  };
}

async function resolve(repositories: RemoteRepositories, ref: RemoteWorkflowRef, uses: string): Promise<Pinned> {
  const found = await repositories.locate(ref.repository, ref.ref);
  if ('missing' in found) {
    const where = repositories.sources.map((source) => source.location);
    throw new NotFoundError(`uses: ${uses}: no source has ${ref.repository} at '${ref.ref}' (looked up in ${where.join(', then ')}): ${found.missing.join('; ')}`, {
      code: 'reusable_workflow_not_found',
      details: { repository: ref.repository, path: ref.path, ref: ref.ref, looked_up: where },
    });
  }
  return { source: found.source, commit: { ref: await found.source.refName(ref.repository, ref.ref, found.sha), sha: found.sha } };
}

function checkReference(ref: RemoteWorkflowRef, uses: string): void {
  const problem = ref.ref.startsWith('refs/')
    ? `name the branch, tag or commit without a ref prefix (@${ref.ref.replace(/^refs\/(heads|tags)\//, '')}, not @${ref.ref}): GitHub refuses refs/heads/ and refs/tags/ here`
    : WORKFLOW_PATH.test(ref.path)
      ? undefined
      : 'a reusable workflow is a .yml or .yaml file directly in .github/workflows of its repository';
  if (problem !== undefined) {
    throw new ValidationError(`uses: ${uses}: ${problem}`, { code: 'invalid_workflow_reference', details: { repository: ref.repository, path: ref.path, ref: ref.ref } });
  }
}

function noSource(uses: string): NotImplementedError {
  return new NotImplementedError(
    `uses: ${uses}: no source of remote repositories is configured (set SVC_ACTIONS_MIRROR_DIR for a local mirror of bare repositories, ` +
      'or SVC_FORGE_API_URL, with SVC_FORGE_TOKEN for private repositories); calling a remote reusable workflow without one',
    { details: { uses } },
  );
}
