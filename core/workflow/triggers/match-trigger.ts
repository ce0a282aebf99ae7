/**
 * Does this event run this workflow? The answer GitHub gives, with the rule that said no.
 */
import { readSchedule, readerFor, type EventMatcher } from './event-matchers.js';
import { configMap, normalizeOn } from './on-section.js';
import type { JsonValue, OnSection, TriggerEvent, TriggerResult } from './types.js';

const WORKFLOW_CALL_REASON =
  'workflow_call is never triggered by an event: the workflow runs only when another workflow calls it';

/**
 * Matches `event` against the workflow's `on:` section: the event name, activity types (with
 * GitHub's defaults), branch, tag and path filters, `workflows`, schedules. A malformed section
 * for the event (both `branches` and `branches-ignore`, a bad pattern, ...) is `invalid`.
 */
export function matchTrigger(on: OnSection | null | undefined, event: TriggerEvent): TriggerResult {
  const normalized = normalizeOn(on);
  if (!normalized.ok) return { status: 'invalid', errors: normalized.errors };
  const { events } = normalized;
  if (event.name === 'workflow_call') return { status: 'skipped', reason: WORKFLOW_CALL_REASON };
  if (!events.has(event.name)) {
    return { status: 'skipped', reason: `the workflow does not run on '${event.name}' (on: ${[...events.keys()].join(', ')})` };
  }
  const errors: string[] = [];
  const matcher = readEvent(event.name, events.get(event.name) ?? null, errors);
  if (errors.length > 0 || !matcher) return { status: 'invalid', errors };
  return matcher(event);
}

/**
 * Every problem in the `on:` section, for every event it names: both a filter and its
 * `-ignore` twin, malformed patterns or lists, schedule entries without `cron`. Empty when valid.
 */
export function validateOn(on: OnSection | null | undefined): readonly string[] {
  const normalized = normalizeOn(on);
  if (!normalized.ok) return normalized.errors;
  const errors: string[] = [];
  for (const [name, config] of normalized.events) readEvent(name, config, errors);
  return errors;
}

/** The event names in the `on:` section, in the order written; empty when it is malformed. */
export function triggerEvents(on: OnSection | null | undefined): readonly string[] {
  const normalized = normalizeOn(on);
  return normalized.ok ? [...normalized.events.keys()] : [];
}

function readEvent(name: string, config: JsonValue, errors: string[]): EventMatcher | undefined {
  if (name === 'schedule') return readSchedule(config, errors);
  const map = configMap(name, config);
  if (typeof map === 'string') {
    errors.push(map);
    return undefined;
  }
  return readerFor(name)(map, name, errors);
}
