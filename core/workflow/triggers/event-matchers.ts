/**
 * One reader per event kind: it checks the event's configuration in `on:` (collecting errors)
 * and returns the matcher that decides whether an event of that kind runs the workflow.
 */
import { activityTypeMismatch } from './activity-types.js';
import { isIncluded, type FilterList } from './filter-list.js';
import { isObject, readPatternFilter, readPatterns, readStringList } from './on-section.js';
import { nameMismatch, pathMismatch, pushRefMismatch, refKind } from './ref-and-path-filters.js';
import type { JsonObject, JsonValue, TriggerEvent, TriggerResult } from './types.js';

export type EventMatcher = (event: TriggerEvent) => TriggerResult;
export type EventReader = (config: JsonObject, name: string, errors: string[]) => EventMatcher;

const TRIGGERED: TriggerResult = { status: 'triggered' };

function decide(...reasons: (string | undefined)[]): TriggerResult {
  const reason = reasons.find((r) => r !== undefined);
  return reason === undefined ? TRIGGERED : { status: 'skipped', reason };
}

/** An event without a field its kind needs is a bug in the caller, not a property of the workflow. */
function missing(name: string, field: string): never {
  throw new TypeError(`a ${name} event needs '${field}' to be matched against this workflow`);
}

function readTypes(config: JsonObject, name: string, errors: string[]): readonly string[] | undefined {
  const types = readStringList(config, name, 'types');
  if (types !== undefined && 'error' in types) {
    errors.push(types.error);
    return undefined;
  }
  return types;
}

const readPush: EventReader = (config, name, errors) => {
  const branches = readPatternFilter(config, name, 'branches', errors);
  const tags = readPatternFilter(config, name, 'tags', errors);
  const paths = readPatternFilter(config, name, 'paths', errors);
  return (event) => {
    if (event.ref === undefined) return missing(name, 'ref');
    // "Path filters are not evaluated for pushes of tags."
    const pathReason = refKind(event.ref).kind === 'tag' ? undefined : pathMismatch(paths, event.changedFiles);
    return decide(pushRefMismatch({ branches, tags }, event.ref), pathReason);
  };
};

/** pull_request and pull_request_target: branch filters apply to the base branch. */
const readPullRequest: EventReader = (config, name, errors) => {
  const types = readTypes(config, name, errors);
  const branches = readPatternFilter(config, name, 'branches', errors);
  const paths = readPatternFilter(config, name, 'paths', errors);
  return (event) => {
    if (branches && event.baseRef === undefined) return missing(name, 'baseRef');
    const base = event.baseRef === undefined ? '' : refKind(event.baseRef).name;
    return decide(
      activityTypeMismatch(name, types, event.action),
      branches ? nameMismatch(branches, base, 'base branch') : undefined,
      pathMismatch(paths, event.changedFiles),
    );
  };
};

/** workflow_run: `workflows` are patterns over the triggering workflow's name. */
const readWorkflowRun: EventReader = (config, name, errors) => {
  const types = readTypes(config, name, errors);
  const workflows = readPatterns(config, name, 'workflows', errors);
  const branches = readPatternFilter(config, name, 'branches', errors);
  return (event) => {
    if (workflows && event.workflowName === undefined) return missing(name, 'workflowName');
    if (branches && event.headBranch === undefined) return missing(name, 'headBranch');
    return decide(
      activityTypeMismatch(name, types, event.action),
      workflows ? listMismatch(workflows, event.workflowName ?? '', 'workflow', 'workflows') : undefined,
      branches ? nameMismatch(branches, event.headBranch ?? '', 'head branch') : undefined,
    );
  };
};

/** repository_dispatch: `types` lists `event_type` values; omitted matches every type. */
const readRepositoryDispatch: EventReader = (config, name, errors) => {
  const types = readTypes(config, name, errors);
  return (event) => {
    if (event.action === undefined) return missing(name, 'action (the event_type)');
    if (types === undefined || types.includes(event.action)) return TRIGGERED;
    return decide(`event_type '${event.action}' is not in on.${name}.types [${types.join(', ')}]`);
  };
};

/** image_version: glob patterns over image names and versions. */
const readImageVersion: EventReader = (config, name, errors) => {
  const names = readPatterns(config, name, 'names', errors);
  const versions = readPatterns(config, name, 'versions', errors);
  return (event) => {
    if (names && event.imageName === undefined) return missing(name, 'imageName');
    if (versions && event.imageVersion === undefined) return missing(name, 'imageVersion');
    return decide(
      names ? listMismatch(names, event.imageName ?? '', 'image', 'names') : undefined,
      versions ? listMismatch(versions, event.imageVersion ?? '', 'version', 'versions') : undefined,
    );
  };
};

/** workflow_dispatch has no filters: declaring it is enough (inputs are checked elsewhere). */
const readWorkflowDispatch: EventReader = () => () => TRIGGERED;

/** Every other event: only activity types, all of them when `types` is omitted. */
const readActivityOnly: EventReader = (config, name, errors) => {
  const types = readTypes(config, name, errors);
  return (event) => decide(activityTypeMismatch(name, types, event.action));
};

const READERS: Readonly<Record<string, EventReader>> = {
  push: readPush,
  pull_request: readPullRequest,
  pull_request_target: readPullRequest,
  workflow_run: readWorkflowRun,
  repository_dispatch: readRepositoryDispatch,
  workflow_dispatch: readWorkflowDispatch,
  image_version: readImageVersion,
};

export function readerFor(event: string): EventReader {
  return Object.hasOwn(READERS, event) ? (READERS[event] as EventReader) : readActivityOnly;
}

/**
 * schedule: a list of `{cron, timezone?}` entries. The scheduler fires one entry; the event
 * carries its cron string and the workflow runs when one of its entries has that string.
 */
export function readSchedule(config: JsonValue, errors: string[]): EventMatcher {
  const entries: { readonly cron: string; readonly timezone: string | undefined }[] = [];
  if (!Array.isArray(config)) {
    errors.push('on.schedule must be a list of {cron} entries');
  } else {
    for (const entry of config as readonly JsonValue[]) {
      const cron = isObject(entry) ? entry['cron'] : undefined;
      const timezone = isObject(entry) ? entry['timezone'] : undefined;
      if (typeof cron !== 'string') errors.push("each on.schedule entry needs a 'cron' string");
      else if (timezone !== undefined && typeof timezone !== 'string') errors.push('on.schedule timezone must be a string');
      else entries.push({ cron, timezone });
    }
  }
  return (event) => {
    if (event.cron === undefined) return missing('schedule', 'cron');
    const hit = entries.some(
      (entry) => entry.cron === event.cron && (event.timezone === undefined || (entry.timezone ?? 'UTC') === event.timezone),
    );
    return hit ? TRIGGERED : decide(`no on.schedule entry has cron '${event.cron}'`);
  };
}

function listMismatch(list: FilterList, value: string, what: string, key: string): string | undefined {
  return isIncluded(list, value) ? undefined : `${what} '${value}' does not match ${key}`;
}
