/**
 * Reading evaluated job fields into the plan's types, with GitHub's checks on the results:
 * `runs-on` (a label, a list of labels, or `group` + `labels`), `concurrency` (a group, or
 * `group` + `cancel-in-progress` + `queue`; the group may not be empty nor longer than 400
 * characters, as GitHub's parser checks once it is evaluated, and `queue: max` does not go with
 * `cancel-in-progress: true`), and `environment` (a name, or `name` + `url`
 * + `deployment`; an empty name means no environment, as GitHub reads it).
 */
import { isBasicExpression, isBoolean, isMapping, isString } from '@actions/workflow-parser/templates/tokens/type-guards';
import { QUEUE_WITH_CANCEL_MESSAGE, type TemplateToken } from '../parser/index.js';
import type { ExpressionValue } from '../expressions/index.js';
import { tokenToValue } from '../templates/index.js';
import type { ConcurrencyPlan, EnvironmentPlan, RunsOn } from './types.js';

export type Read<T> = { readonly ok: true; readonly value: T } | { readonly ok: false; readonly message: string };

const MAX_CONCURRENCY_GROUP_LENGTH = 400;

export function readRunsOn(token: TemplateToken): Read<RunsOn> {
  const value = plain(token);
  if (typeof value === 'string') return { ok: true, value: { labels: [value] } };
  if (isList(value)) {
    const labels = stringList(value);
    return labels ? { ok: true, value: { labels } } : { ok: false, message: 'runs-on labels must be strings' };
  }
  if (isObject(value)) {
    const group = value['group'];
    const rawLabels = value['labels'];
    const labels = rawLabels === undefined ? [] : typeof rawLabels === 'string' ? [rawLabels] : isList(rawLabels) ? stringList(rawLabels) : undefined;
    if (labels === undefined) return { ok: false, message: 'runs-on labels must be strings' };
    if (group !== undefined && typeof group !== 'string') return { ok: false, message: 'runs-on group must be a string' };
    return { ok: true, value: group === undefined || group === '' ? { labels } : { labels, group } };
  }
  return { ok: false, message: `runs-on must be a label, a list of labels or a map of group and labels, not ${describe(value)}` };
}

export function readConcurrency(token: TemplateToken): Read<ConcurrencyPlan> {
  const value = plain(token);
  let group: ExpressionValue | undefined;
  let cancel: ExpressionValue | undefined = false;
  let queue: ExpressionValue | undefined = 'single';
  if (isObject(value)) {
    group = value['group'];
    cancel = value['cancel-in-progress'] ?? false;
    queue = value['queue'] ?? 'single';
  } else {
    group = value;
  }
  if (typeof cancel !== 'boolean') return { ok: false, message: 'cancel-in-progress must be a boolean' };
  if (queue !== 'single' && queue !== 'max') return { ok: false, message: `queue must be single or max, not ${describe(queue)}` };
  // The parser refuses the pair when both are written out; an expression is checked here, once evaluated.
  if (queue === 'max' && cancel) return { ok: false, message: QUEUE_WITH_CANCEL_MESSAGE };
  if (group === undefined || group === null || group === '') return { ok: false, message: 'Concurrency group name cannot be empty' };
  if (typeof group !== 'string') return { ok: false, message: `The concurrency group must be a string, not ${describe(group)}` };
  if (group.length > MAX_CONCURRENCY_GROUP_LENGTH) {
    return { ok: false, message: 'Concurrency group name must be less than 400 characters' };
  }
  return { ok: true, value: { group, key: group.toLowerCase(), cancelInProgress: cancel, queue } };
}

/** Undefined value: no environment (an empty name). The `url` token is kept as the runner gets it. */
export function readEnvironment(token: TemplateToken): Read<EnvironmentPlan | undefined> {
  if (isString(token)) return { ok: true, value: token.value === '' ? undefined : { name: token.value, deployment: true } };
  if (!isMapping(token)) return { ok: false, message: 'environment must be a name or a map with a name' };
  let name: string | undefined;
  let url: TemplateToken | undefined;
  let deployment = true;
  for (const pair of token) {
    const key = pair.key.toString();
    if (key === 'name') {
      if (!isString(pair.value)) return { ok: false, message: 'environment name must be a string' };
      name = pair.value.value;
    } else if (key === 'url') {
      url = pair.value;
    } else if (key === 'deployment' && isBoolean(pair.value)) {
      deployment = pair.value.value;
    }
  }
  if (name === undefined || name === '') return { ok: true, value: undefined };
  return { ok: true, value: { name, ...(url === undefined ? {} : { url }), deployment } };
}

/**
 * An environment's `url` as text for people and the store: a literal as is, an expression as
 * its `${{ }}` source (the runner evaluates it after the job's steps).
 */
export function environmentUrlText(environment: EnvironmentPlan | undefined): string | null {
  const url = environment?.url;
  if (url === undefined) return null;
  if (isString(url)) return url.value;
  return isBasicExpression(url) ? url.toString() : null;
}

export function readString(token: TemplateToken): Read<string> {
  const value = plain(token);
  return typeof value === 'string' ? { ok: true, value } : { ok: false, message: `Expected a string, not ${describe(value)}` };
}

export function readNumber(token: TemplateToken): Read<number> {
  const value = plain(token);
  return typeof value === 'number' ? { ok: true, value } : { ok: false, message: `Expected a number, not ${describe(value)}` };
}

export function readBoolean(token: TemplateToken): Read<boolean> {
  const value = plain(token);
  return typeof value === 'boolean' ? { ok: true, value } : { ok: false, message: `Expected a boolean, not ${describe(value)}` };
}

/** The evaluated token as plain data; an expression left in it (never at these fields) reads as undefined. */
function plain(token: TemplateToken): ExpressionValue | undefined {
  try {
    return tokenToValue(token);
  } catch {
    return undefined;
  }
}

function isList(value: ExpressionValue | undefined): value is readonly ExpressionValue[] {
  return Array.isArray(value);
}

function isObject(value: ExpressionValue | undefined): value is { readonly [key: string]: ExpressionValue } {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function stringList(values: readonly ExpressionValue[]): string[] | undefined {
  return values.every((item): item is string => typeof item === 'string') ? [...values] : undefined;
}

function describe(value: ExpressionValue | undefined): string {
  if (value === undefined) return 'an unevaluated expression';
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'a list';
  return typeof value === 'object' ? 'a map' : `${typeof value} '${String(value)}'`;
}
