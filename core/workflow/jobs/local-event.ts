/**
 * The event of a local plan or run (`svc plan`, `svc run`): the repository, ref and commit of the
 * working tree, and the payload the user supplies (`--payload`), merged over a minimal one.
 *
 * Only what the working tree knows is filled in: `repository` and `sender` for every event, and
 * for `push` the pushed `ref` and its new tip (`after`), as a push of the current branch would
 * carry them. Nothing else is invented; a `pull_request` has no `pull_request` object unless the
 * payload brings one (spec: "A local pull_request run invents no pull-request fields"). When the
 * payload does not say which ref and commit the event is about, the working tree's are used.
 */
import { eventRef } from '../templates/index.js';
import type { JsonObject, JsonValue } from '../triggers/index.js';
import type { PlanEvent } from './run-contexts.js';

/** The commit id used when there is no repository (or no commit yet). */
export const ZERO_SHA = '0'.repeat(40);

export interface LocalEventInput {
  /** Default `push`. */
  readonly name?: string;
  /** `owner/name`. */
  readonly repository: string;
  /** The full ref of the working tree (`refs/heads/main`). */
  readonly ref: string;
  readonly sha: string;
  readonly actor: string;
  /** Default: the branch of `ref`. */
  readonly defaultBranch?: string;
  /** Merged over the minimal payload (maps merge key by key, anything else replaces). */
  readonly payload?: JsonObject;
}

export function localEvent(input: LocalEventInput): PlanEvent {
  const name = input.name ?? 'push';
  const [owner = '', repo = ''] = input.repository.split('/');
  const defaultBranch = input.defaultBranch ?? (input.ref.startsWith('refs/heads/') ? input.ref.slice('refs/heads/'.length) : 'main');
  const base: JsonObject = {
    repository: { full_name: input.repository, name: repo, owner: { login: owner }, default_branch: defaultBranch },
    sender: { login: input.actor },
    ...(name === 'push' ? { ref: input.ref, before: ZERO_SHA, after: input.sha } : {}),
    ...(name === 'workflow_dispatch' ? { ref: input.ref } : {}),
  };
  const payload = merge(base, input.payload ?? {});
  const implied = eventRef(name, payload);
  const usable = implied.ref !== '' && !implied.ref.includes('//');
  return {
    name,
    payload,
    ...(usable ? {} : { ref: input.ref }),
    ...(usable && implied.sha !== undefined ? {} : { sha: usable ? input.sha : (implied.sha ?? input.sha) }),
  };
}

function merge(base: JsonObject, over: JsonObject): JsonObject {
  const result: Record<string, JsonValue> = { ...base };
  for (const [key, value] of Object.entries(over)) {
    const current = result[key];
    result[key] = isObject(current) && isObject(value) ? merge(current, value) : value;
  }
  return result;
}

function isObject(value: JsonValue | undefined): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
