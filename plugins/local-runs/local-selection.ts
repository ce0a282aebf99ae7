import type { SelectionLoader, SelectionRequest } from '../../core/engine/index.js';
import { eventRef, localEvent, type JsonObject, type JsonValue } from '../../core/workflow/index.js';
import type { RunRequest } from './run-request.js';

export interface LocalSelectionContext {
  /** The workflow file as the snapshot holds it. */
  readonly content: string;
  /** Reads the workflows it calls (workflow-loader.ts). */
  readonly loader: SelectionLoader;
  readonly serverUrl: string;
}

/**
 * The engine's selection request for a local submission. The event is the minimal local one
 * (repository and sender; for a push its ref and commit) with the client's `payload` merged
 * over it, so a local `pull_request` carries no pull-request fields the client did not send.
 * `inputs` become the payload's `inputs`, where workflow_dispatch reads them. The run's commit is
 * always the snapshot, whatever the payload says: that is the tree the runner checks out.
 */
export function localSelection(request: RunRequest, context: LocalSelectionContext): SelectionRequest {
  const payload: JsonObject | undefined =
    request.inputs === undefined ? request.payload : { ...request.payload, inputs: { ...inputsOf(request.payload), ...request.inputs } };
  const event = localEvent({
    name: request.event,
    repository: request.repository,
    ref: request.ref,
    sha: request.snapshot,
    actor: request.actor,
    ...(payload === undefined ? {} : { payload }),
  });
  const ref = event.ref ?? eventRef(event.name, event.payload ?? {}).ref;
  return {
    event: {
      ...event,
      ref,
      sha: request.snapshot,
      ...(request.changedFiles === undefined ? {} : { changedFiles: request.changedFiles }),
    },
    repository: request.repository,
    actor: request.actor,
    trigger: 'local',
    workflows: [{ path: request.workflow, content: context.content }],
    loader: context.loader,
    ...(request.jobs === undefined ? {} : { job: request.jobs }),
    serverUrl: context.serverUrl,
  };
}

function inputsOf(payload: JsonObject | undefined): JsonObject {
  const inputs = payload?.['inputs'];
  return isObject(inputs) ? inputs : {};
}

function isObject(value: JsonValue | undefined): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
