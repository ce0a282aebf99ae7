import type { Json } from '../model/records.js';
import type { CreateRunInput } from '../runs/create-run.js';
import type { SelectionRequest } from './select-runs.js';
import { workflowId } from './workflow-id.js';

/** The record of a workflow file that could not run (no jobs; the run is created failed). */
export function failedRunInput(request: SelectionRequest, path: string, name: string): CreateRunInput {
  return {
    workflow: { id: workflowId(request.repository, path), path, name },
    repository: request.repository,
    event: request.event.name,
    ref: request.event.ref,
    sha: request.event.sha,
    actor: request.actor,
    trigger: request.trigger,
    payload: (request.event.payload ?? {}) as Json,
    displayTitle: name,
    concurrency: null,
    files: [],
    jobs: [],
  };
}
