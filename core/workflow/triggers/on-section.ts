/**
 * Reading the `on:` section: its three shapes (a name, a list of names, a map of name to
 * configuration) become one map, and an event's configuration yields its filter lists.
 */
import { compileFilterList, type FilterList } from './filter-list.js';
import type { JsonObject, JsonValue, OnSection } from './types.js';

export type OnEvents =
  | { readonly ok: true; readonly events: ReadonlyMap<string, JsonValue> }
  | { readonly ok: false; readonly errors: readonly string[] };

/** Every event the section names, with its configuration (`null` when it has none). */
export function normalizeOn(on: OnSection | null | undefined): OnEvents {
  if (on === null || on === undefined) return fail("the workflow has no 'on' section");
  const events = new Map<string, JsonValue>();
  const errors: string[] = [];
  const add = (name: unknown, config: JsonValue): void => {
    if (typeof name !== 'string' || name === '') errors.push("an event name in 'on' is not a non-empty string");
    else events.set(name, config);
  };

  if (typeof on === 'string') add(on, null);
  else if (isList(on)) for (const name of on) add(name, null);
  else if (isObject(on)) for (const [name, config] of Object.entries(on)) add(name, config);
  else return fail("'on' must be an event name, a list of event names or a map of events");

  if (events.size === 0 && errors.length === 0) errors.push("'on' names no event");
  return errors.length > 0 ? { ok: false, errors } : { ok: true, events };
}

/** An event's configuration as a map; `null` (no configuration) reads as an empty map. */
export function configMap(event: string, config: JsonValue): JsonObject | string {
  if (config === null) return {};
  if (isObject(config)) return config;
  return `the configuration of '${event}' must be a map`;
}

/** A string list (or one string, which GitHub reads as a one-item list); absent is undefined. */
export function readStringList(
  config: JsonObject,
  event: string,
  key: string,
): readonly string[] | undefined | { readonly error: string } {
  if (!Object.hasOwn(config, key)) return undefined;
  const value = config[key];
  if (typeof value === 'string') return [value];
  if (isList(value) && value.every((item): item is string => typeof item === 'string')) return value;
  return { error: `on.${event}.${key} must be a string or a list of strings` };
}

/** A pattern filter that may come as `key` or `key-ignore`, never both. */
export interface PatternFilter {
  readonly mode: 'include' | 'ignore';
  readonly key: string;
  readonly list: FilterList;
}

export function readPatternFilter(
  config: JsonObject,
  event: string,
  key: string,
  errors: string[],
): PatternFilter | undefined {
  if (Object.hasOwn(config, key) && Object.hasOwn(config, `${key}-ignore`)) {
    errors.push(`on.${event}: you cannot use both '${key}' and '${key}-ignore' for the same event`);
    return undefined;
  }
  const include = readPatterns(config, event, key, errors);
  const ignore = readPatterns(config, event, `${key}-ignore`, errors);
  if (include) return { mode: 'include', key, list: include };
  if (ignore) return { mode: 'ignore', key: `${key}-ignore`, list: ignore };
  return undefined;
}

/** A pattern list with no `-ignore` twin (`workflows`, image `names`, ...). */
export function readPatterns(
  config: JsonObject,
  event: string,
  key: string,
  errors: string[],
): FilterList | undefined {
  const sources = readStringList(config, event, key);
  if (sources === undefined) return undefined;
  if ('error' in sources) {
    errors.push(sources.error);
    return undefined;
  }
  const compiled = compileFilterList(sources);
  if (compiled.ok) return compiled.list;
  errors.push(...compiled.errors.map((error) => `on.${event}.${key}: ${error}`));
  return undefined;
}

export function isObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function isList(value: unknown): value is readonly JsonValue[] {
  return Array.isArray(value);
}

function fail(error: string): OnEvents {
  return { ok: false, errors: [error] };
}

/**
 * The `inputs` map an event declares (`workflow_dispatch` or `workflow_call`), or undefined
 * when the event is absent or declares none; feed it to the input resolvers.
 */
export function declaredInputs(on: OnSection | null | undefined, event: 'workflow_dispatch' | 'workflow_call'): JsonValue | undefined {
  const normalized = normalizeOn(on);
  if (!normalized.ok) return undefined;
  const config = normalized.events.get(event);
  return isObject(config) && Object.hasOwn(config, 'inputs') ? config['inputs'] : undefined;
}
