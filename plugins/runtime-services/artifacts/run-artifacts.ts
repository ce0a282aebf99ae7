import type { Engine, RunRecord } from '../../../core/engine/index.js';
import { NotFoundError } from '../../../core/kernel/index.js';
import type { Clock } from '../../../core/ports/index.js';
import type { BlockBlobs, OpenedBlob } from '../blobs/index.js';
import type { RuntimeDb } from '../store/index.js';
import { readyArtifacts, type ArtifactRecord } from './artifact-records.js';

export interface RunArtifactsDeps {
  readonly db: RuntimeDb;
  readonly blobs: BlockBlobs;
  readonly clock: Clock;
  readonly engine: Pick<Engine, 'getRun'>;
}

export interface OpenedArtifact {
  readonly artifact: ArtifactRecord;
  readonly blob: OpenedBlob;
}

/**
 * A run's artifacts as the operator sees them (the native API and the artifact URL the upload
 * prints), by engine run id and artifact id: the ids `GITHUB_RUN_ID` and `FinalizeArtifact` give
 * jobs, so the URL a job prints names what `svc artifacts` takes. Jobs reach artifacts through
 * the artifact service instead, with their token's run.
 */
export interface RunArtifacts {
  /** The run, or NotFoundError (`run_not_found`). */
  run(runId: number): Promise<RunRecord>;
  /** The run's ready, unexpired artifacts, oldest first. */
  list(run: RunRecord): Promise<ArtifactRecord[]>;
  /** One of them with its bytes, streamed; NotFoundError (`artifact_not_found`) otherwise. */
  open(run: RunRecord, artifactId: number): Promise<OpenedArtifact>;
}

export function createRunArtifacts(deps: RunArtifactsDeps): RunArtifacts {
  return {
    async run(runId) {
      const run = await deps.engine.getRun(runId);
      if (run === undefined) throw new NotFoundError(`run ${runId} does not exist`, { code: 'run_not_found' });
      return run;
    },

    list(run) {
      return readyArtifacts(deps.db, run.id, deps.clock.now(), {});
    },

    async open(run, artifactId) {
      const [artifact] = await readyArtifacts(deps.db, run.id, deps.clock.now(), { id: artifactId });
      if (artifact === undefined) {
        throw new NotFoundError(`run ${run.id} has no artifact ${artifactId} (expired artifacts are deleted); \`svc artifacts list ${run.id}\` shows what it has`, { code: 'artifact_not_found' });
      }
      // The sweeper may delete it between the row and the bytes: then it is gone, as expired.
      const blob = await deps.blobs.open(artifact.blobId, undefined).catch((error: unknown) => {
        if (error instanceof NotFoundError) throw new NotFoundError(`artifact ${artifactId} of run ${run.id} was just deleted`, { code: 'artifact_not_found' });
        throw error;
      });
      return { artifact, blob };
    },
  };
}
