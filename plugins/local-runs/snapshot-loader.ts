import { InputError, NotImplementedError } from '../../core/kernel/index.js';
import type { SnapshotStore } from '../../core/ports/index.js';
import type { LoadedWorkflowFile, WorkflowLoader, WorkflowRef } from '../../core/workflow/index.js';

/**
 * Called workflows of a local submission: `uses: ./.github/workflows/x.yml` is read from the
 * same snapshot as the caller (the working tree, uncommitted changes included). A remote
 * `owner/repo/...@ref` needs the forge, which local runs cannot reach yet: that stops the
 * submission with 501 `not_implemented` rather than a misleading "not found".
 */
export function snapshotWorkflowLoader(snapshots: SnapshotStore, repository: string, sha: string): WorkflowLoader {
  return {
    async read(ref: WorkflowRef): Promise<LoadedWorkflowFile | undefined> {
      if (ref.repository !== undefined) {
        throw new NotImplementedError(
          `calling the remote reusable workflow ${ref.repository}/${ref.path}@${ref.ref ?? ''} from a local run (remote reusable workflows need forge access)`,
          { details: { repository: ref.repository, path: ref.path, ref: ref.ref ?? null } },
        );
      }
      try {
        const content = await snapshots.readFile(repository, sha, ref.path);
        return content === undefined ? undefined : { name: ref.path, content };
      } catch (error) {
        // `./../x.yml` names nothing in the tree: "Unable to find reusable workflow" at the
        // calling job, as GitHub says it, beats a 400 about a path the user never typed as one.
        if (error instanceof InputError) return undefined;
        throw error;
      }
    },
  };
}
