import type { JsonObject } from '../../protocol/index.js';

/** Plain data, as the parser layer hands the workflow's sections over. */
export type { JsonObject, JsonPrimitive, JsonValue } from '../../protocol/index.js';

/**
 * The workflow's `on:` section: one event name, a list of names, or a map of event name to its
 * configuration (`null` for none; `schedule` maps to a list of `{cron}` entries).
 */
export type OnSection = string | readonly string[] | JsonObject;

/**
 * An event offered to a workflow. `name` is the event (`push`, `pull_request`, ...); the other
 * fields are read only by the events that use them. Leaving out a field the workflow's filters
 * need (a push without `ref`, a pull request without `baseRef` when `branches` is set) is a
 * programming error: `matchTrigger` throws a TypeError.
 */
export interface TriggerEvent {
  readonly name: string;
  /**
   * The activity type: the webhook payload's `action` (`opened`, `completed`, ...); for
   * `repository_dispatch` the `event_type`. Omitted for events without activity types.
   */
  readonly action?: string;
  /** push: the full ref pushed, `refs/heads/<branch>` or `refs/tags/<tag>`. */
  readonly ref?: string;
  /** pull_request, pull_request_target: the base branch (`main` or `refs/heads/main`). */
  readonly baseRef?: string;
  /**
   * push, pull_request, pull_request_target: the changed paths (two-dot diff for pushes,
   * three-dot for pull requests). Omit when the list is unavailable (more than 1,000 commits, a
   * diff timeout): GitHub then runs the workflow whatever its path filters say.
   */
  readonly changedFiles?: readonly string[];
  /** workflow_run: the `name` of the workflow whose run triggered the event. */
  readonly workflowName?: string;
  /** workflow_run: the head branch of the triggering run. */
  readonly headBranch?: string;
  /** schedule: the cron string of the entry that fired, exactly as written in the workflow. */
  readonly cron?: string;
  /** schedule: the entry's `timezone`, when the scheduler knows it. */
  readonly timezone?: string;
  /** image_version: the image name and version that became available. */
  readonly imageName?: string;
  readonly imageVersion?: string;
}

export type TriggerResult =
  | { readonly status: 'triggered' }
  /** The workflow is valid but this event does not run it; `reason` says which rule. */
  | { readonly status: 'skipped'; readonly reason: string }
  /** The workflow's `on:` section is malformed for this event (GitHub rejects such files). */
  | { readonly status: 'invalid'; readonly errors: readonly string[] };
