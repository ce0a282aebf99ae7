import type { SelectionLoader, SelectedWorkflowFile } from '../../core/engine/index.js';
import { InputError } from '../../core/kernel/index.js';
import type { SnapshotStore } from '../../core/ports/index.js';
import type { WorkflowRef } from '../../core/workflow/index.js';
import type { RemoteWorkflowReader } from './remote-workflows.js';

export interface SubmissionLoaderContext {
  readonly snapshots: SnapshotStore;
  /** The run's repository and snapshot commit. */
  readonly repository: string;
  readonly sha: string;
  /** Reads `owner/repo/...@ref` (remote-workflows.ts). */
  readonly remote: RemoteWorkflowReader;
}

/**
 * Called workflows of a local submission: `uses: ./.github/workflows/x.yml` is read from the same
 * snapshot as the caller (the working tree, uncommitted changes included); `owner/repo/...@ref`,
 * and `./...` inside a workflow read from there, from the remote repositories (remote-workflows.ts).
 */
export function submissionWorkflowLoader(context: SubmissionLoaderContext): SelectionLoader {
  return {
    async read(ref: WorkflowRef): Promise<SelectedWorkflowFile | undefined> {
      if (ref.repository !== undefined) return context.remote({ repository: ref.repository, path: ref.path, ref: ref.ref ?? '' });
      try {
        const content = await context.snapshots.readFile(context.repository, context.sha, ref.path);
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
