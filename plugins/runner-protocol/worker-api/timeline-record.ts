/**
 * Timeline records (§4.2) as the Worker sends them and as we keep them: one JSON object per
 * record, camelCase keys, enums as camelCase names, GUIDs lower-case. The Worker re-sends whole
 * records but also partial ones (the log association is `{id, log}` only), and the Listener
 * sends back what a GET gave it; records are therefore merged field by field, the way the
 * runner's own queue merges them (JobServerQueue.MergeTimelineRecords): a field that is null or
 * absent keeps its stored value, issue counts only grow, a non-empty `issues` list replaces the
 * stored one, `variables` are merged by name.
 */
import { InputError } from '../../../core/kernel/index.js';
import type { JsonObject, JsonValue } from '../../../core/protocol/index.js';
import type { TaskResultName, TimelineRecordStateName } from '../../../core/protocol/index.js';
import { parseIssueType, parseRecordState, parseTaskResult, type IssueTypeName } from './wire-enums.js';

const GUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const COUNTS = ['errorCount', 'warningCount', 'noticeCount'] as const;

/** A stored (or incoming, normalised) record. */
export type RecordJson = JsonObject;

export interface RecordIssue {
  readonly type: IssueTypeName;
  readonly message: string;
  readonly category: string | undefined;
  /** `data`, keys lower-cased (the runner's dictionary ignores case). */
  readonly data: ReadonlyMap<string, string>;
}

/** The fields of a record the server acts on. */
export interface RecordView {
  readonly id: string;
  readonly parentId: string | undefined;
  readonly type: string | undefined;
  readonly name: string | undefined;
  readonly refName: string | undefined;
  readonly order: number | undefined;
  readonly state: TimelineRecordStateName | undefined;
  readonly result: TaskResultName | undefined;
  /** Epoch ms; undefined when unset (null or .NET's `0001-01-01`). */
  readonly startTime: number | undefined;
  readonly finishTime: number | undefined;
  readonly logId: number | undefined;
  readonly issues: readonly RecordIssue[];
}

export function isGuid(value: unknown): value is string {
  return typeof value === 'string' && GUID.test(value);
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** camelCase of a property name (the runner writes camelCase; other writers may not). */
function camel(key: string): string {
  return key.length === 0 ? key : key[0]!.toLowerCase() + key.slice(1);
}

/**
 * An incoming record in our spelling. Throws InputError (400) for what the runner never sends:
 * no GUID id, an enum value it does not know, a date that is no date.
 */
export function normalizeRecord(raw: unknown, where: string): RecordJson {
  if (!isObject(raw)) throw new InputError(`${where} is not a timeline record object`, { code: 'timeline_record_invalid' });
  const record: Record<string, JsonValue> = {};
  for (const [key, value] of Object.entries(raw)) record[camel(key)] = value as JsonValue;
  if (!isGuid(record['id'])) throw new InputError(`${where}: 'id' must be a GUID`, { code: 'timeline_record_invalid' });
  record['id'] = record['id'].toLowerCase();
  for (const key of ['parentId']) {
    const value = record[key];
    if (value === null || value === undefined) continue;
    if (!isGuid(value)) throw new InputError(`${where}: '${key}' must be a GUID or null`, { code: 'timeline_record_invalid' });
    record[key] = value.toLowerCase();
  }
  const state = parseRecordState(record['state'], `${where}: state`);
  if (state !== undefined) record['state'] = state;
  const result = parseTaskResult(record['result'], `${where}: result`);
  if (result !== undefined) record['result'] = result;
  for (const key of ['startTime', 'finishTime']) dateOf(record[key], `${where}: ${key}`);
  const order = record['order'];
  if (order !== null && order !== undefined && !(typeof order === 'number' && Number.isSafeInteger(order))) {
    throw new InputError(`${where}: 'order' must be an integer`, { code: 'timeline_record_invalid' });
  }
  const log = record['log'];
  if (log !== null && log !== undefined && !(isObject(log) && typeof log['id'] === 'number' && Number.isSafeInteger(log['id']))) {
    throw new InputError(`${where}: 'log' must be {"id": <integer>} or null`, { code: 'timeline_record_invalid' });
  }
  const issues = record['issues'];
  if (issues !== null && issues !== undefined) {
    if (!Array.isArray(issues)) throw new InputError(`${where}: 'issues' must be a list`, { code: 'timeline_record_invalid' });
    record['issues'] = issues.map((issue, index) => normalizeIssue(issue, `${where}: issues[${index}]`));
  }
  return record;
}

function normalizeIssue(raw: unknown, where: string): JsonObject {
  if (!isObject(raw)) throw new InputError(`${where} is not an issue object`, { code: 'timeline_record_invalid' });
  const issue: Record<string, JsonValue> = {};
  for (const [key, value] of Object.entries(raw)) issue[camel(key)] = value as JsonValue;
  const type = parseIssueType(issue['type'], `${where}: type`);
  if (type === undefined) throw new InputError(`${where}: 'type' is required (error, warning or notice)`, { code: 'timeline_record_invalid' });
  issue['type'] = type;
  const message = issue['message'];
  if (message !== null && message !== undefined && typeof message !== 'string') {
    throw new InputError(`${where}: 'message' must be a string`, { code: 'timeline_record_invalid' });
  }
  const data = issue['data'];
  if (data !== null && data !== undefined) {
    if (!isObject(data) || Object.values(data).some((value) => value !== null && typeof value !== 'string')) {
      throw new InputError(`${where}: 'data' must map names to strings`, { code: 'timeline_record_invalid' });
    }
  }
  return issue;
}

/** Epoch ms of a .NET date string; undefined when unset. */
export function dateOf(value: JsonValue | undefined, where: string): number | undefined {
  if (value === null || value === undefined) return undefined;
  const ms = typeof value === 'string' ? Date.parse(value) : Number.NaN;
  if (Number.isNaN(ms)) throw new InputError(`${where} ${JSON.stringify(value)} is not an ISO 8601 date`, { code: 'timeline_record_invalid' });
  // DateTime.MinValue (`0001-01-01T00:00:00`) is the runner's "not set".
  return ms <= 0 ? undefined : ms;
}

/** The stored record after an update (see the file comment for the rules). */
export function mergeRecord(stored: RecordJson | undefined, incoming: RecordJson): RecordJson {
  if (stored === undefined) return { ...incoming };
  const merged: Record<string, JsonValue> = { ...stored };
  for (const [key, value] of Object.entries(incoming)) {
    if (value === null || value === undefined) continue;
    if ((COUNTS as readonly string[]).includes(key)) {
      if (typeof value === 'number' && value > 0) merged[key] = value;
    } else if (key === 'issues') {
      if (Array.isArray(value) && value.length > 0) merged[key] = value;
    } else if (key === 'variables') {
      const before = isObject(stored['variables']) ? (stored['variables'] as JsonObject) : {};
      if (isObject(value)) merged[key] = { ...before, ...(value as JsonObject) };
    } else {
      merged[key] = value;
    }
  }
  return merged;
}

const text = (value: JsonValue | undefined): string | undefined => (typeof value === 'string' ? value : undefined);

/** The fields of a normalised record the server acts on. */
export function viewRecord(record: RecordJson): RecordView {
  const log = record['log'];
  const order = record['order'];
  const issues = Array.isArray(record['issues']) ? (record['issues'] as JsonObject[]) : [];
  return {
    id: String(record['id']),
    parentId: text(record['parentId']),
    type: text(record['type']),
    name: text(record['name']),
    refName: text(record['refName']),
    order: typeof order === 'number' ? order : undefined,
    state: parseRecordState(record['state']),
    result: parseTaskResult(record['result']),
    startTime: dateOf(record['startTime'], 'startTime'),
    finishTime: dateOf(record['finishTime'], 'finishTime'),
    logId: isObject(log) && typeof log['id'] === 'number' ? log['id'] : undefined,
    issues: issues.map((issue) => ({
      type: parseIssueType(issue['type']) ?? 'error',
      message: text(issue['message']) ?? '',
      category: text(issue['category']),
      data: new Map(Object.entries(isObject(issue['data']) ? (issue['data'] as JsonObject) : {}).flatMap(([k, v]) => (typeof v === 'string' ? [[k.toLowerCase(), v]] : []))),
    })),
  };
}
