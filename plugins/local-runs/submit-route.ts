import type { FastifyInstance } from 'fastify';
import type { Engine } from '../../core/engine/index.js';
import { NotFoundError, type HostLifecycle, type Logger } from '../../core/kernel/index.js';
import type { Clock, JobValues, RemoteRepositories, SnapshotStore } from '../../core/ports/index.js';
import { localSelection } from './local-selection.js';
import { runValuesFor } from './run-values.js';
import { remoteWorkflowReader } from './remote-workflows.js';
import { parseRunRequest, runRequestValidator } from './run-request.js';
import { SubmittedViewSchema } from './schemas.js';
import { submissionOutcome } from './submission-outcome.js';
import { submissionWorkflowLoader } from './workflow-loader.js';

/** `changed_files` of a large change and an event `payload` (GitHub's are up to megabytes) fit. */
export const RUN_REQUEST_BODY_LIMIT = 10 * 1024 * 1024;

export interface SubmitRouteDependencies {
  readonly engine: Engine;
  readonly snapshots: SnapshotStore;
  /** Where remote reusable workflows are read: the action mirror, then the forge. */
  readonly remoteRepositories: RemoteRepositories;
  readonly clock: Clock;
  readonly logger: Logger;
  readonly lifecycle: HostLifecycle;
  readonly retentionMs: number;
  /** Secrets and variables (the secrets plugin); undefined when it is not enabled. */
  readonly jobValues: JobValues | undefined;
}

/**
 * `POST /runs` `{repository, snapshot, workflow, event?, ref?, base?, changed_files?, payload?,
 * job?, inputs?, actor?, secrets?, vars?}`: runs one workflow file of an uploaded snapshot (what `svc run`
 * calls). The file and the local reusable workflows it calls are read from the snapshot, remote
 * ones from the mirror or the forge (remote-workflows.ts); the engine selects and creates the run
 * (`trigger: 'local'`). 201 with the run; 404 `workflow_not_found`, `snapshot_not_found` or
 * `reusable_workflow_not_found`; 400 `secrets_unavailable` for run-supplied values without the
 * secrets plugin; 422 `not_triggered`, `invalid_inputs` (no run),
 * `invalid_workflow` or `invalid_workflow_reference`; 501 when a remote workflow is called and no source is configured.
 */
export function registerSubmitRoute(app: FastifyInstance, deps: SubmitRouteDependencies): void {
  runRequestValidator();
  app.post('/runs', { schema: { response: { 201: SubmittedViewSchema } }, bodyLimit: RUN_REQUEST_BODY_LIMIT }, async (request, reply) => {
    const run = parseRunRequest(request.body);
    const content = await deps.snapshots.readFile(run.repository, run.snapshot, run.workflow);
    if (content === undefined) {
      throw new NotFoundError(`${run.workflow} is not a file in snapshot ${run.snapshot} of ${run.repository}`, {
        code: 'workflow_not_found',
        details: { workflow: run.workflow },
      });
    }
    // The run's jobs check this commit out: keep it for the retention from now, not from upload.
    await deps.snapshots.retain(run.repository, run.snapshot, deps.clock.now() + deps.retentionMs);
    const baseUrl = deps.lifecycle.publicUrl();
    const selection = {
      ...localSelection(run, {
        content,
        loader: submissionWorkflowLoader({
          snapshots: deps.snapshots,
          repository: run.repository,
          sha: run.snapshot,
          remote: remoteWorkflowReader(deps.remoteRepositories),
        }),
        serverUrl: baseUrl,
      }),
      ...(await runValuesFor(run, deps.jobValues)),
      // As GitHub's dispatch API: an input the workflow does not declare is a mistake to report.
      unexpectedInputs: 'refuse' as const,
    };
    const view = submissionOutcome(run, await deps.engine.submit(selection), (runId) => `${baseUrl}/api/v1/runs/${runId}`);
    deps.logger.info({ repository: run.repository, workflow: run.workflow, event: run.event, runs: view.runs.map((r) => r.run_id) }, 'local run submitted');
    return reply.status(201).send(view);
  });
}
