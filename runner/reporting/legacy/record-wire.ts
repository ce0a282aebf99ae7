/**
 * Timeline records on the legacy wire (§4.2): camelCase members, enums as camelCase names,
 * dates in .NET's round-trip form, the worker's name on every record and the platform on the
 * job record. Updates of one record queued between two flushes are merged the way the runner's
 * JobServerQueue merges them: a member that is null in the newer update keeps the older value,
 * issue counts only grow, a non-empty issue list replaces the older one.
 */
import type { JsonObject, JsonValue } from '../../../core/protocol/index.js';
import { logTimestamp } from '../log-book.js';
import type { RecordIssue, TimelineRecord } from '../reporter-types.js';

export type WireRecord = JsonObject;

export interface RecordWireOptions {
  readonly workerName: string;
  /** `Linux`, `MacOS` or `Windows` (the job record's `agentPlatform`). */
  readonly agentPlatform: string;
}

function date(value: Date | null): string | null {
  return value === null ? null : logTimestamp(value);
}

export function issueToWire(issue: RecordIssue): JsonObject {
  return {
    type: issue.type,
    category: issue.category ?? 'General',
    message: issue.message,
    isInfrastructureIssue: issue.isInfrastructureIssue ?? null,
    data: { ...issue.data },
  };
}

export function recordToWire(record: TimelineRecord, options: RecordWireOptions): WireRecord {
  return {
    id: record.id,
    parentId: record.parentId,
    type: record.type,
    name: record.name,
    startTime: date(record.startTime),
    finishTime: date(record.finishTime),
    currentOperation: null,
    percentComplete: record.percentComplete,
    state: record.state,
    result: record.result,
    resultCode: record.resultCode ?? null,
    changeId: 0,
    lastModified: '0001-01-01T00:00:00',
    workerName: options.workerName,
    order: record.order,
    refName: record.refName,
    log: null,
    details: null,
    errorCount: record.errorCount,
    warningCount: record.warningCount,
    noticeCount: record.noticeCount,
    issues: record.issues.map(issueToWire),
    location: null,
    attempt: 0,
    identifier: null,
    ...(record.type === 'Job' ? { agentPlatform: options.agentPlatform } : {}),
  };
}

/** The partial record that links a record to an uploaded log page (§4.3). */
export function logLink(recordId: string, logId: number): WireRecord {
  return { id: recordId, log: { id: logId, location: null } };
}

const COUNTS = new Set(['errorCount', 'warningCount', 'noticeCount']);

/** `newer` merged onto `older` (see the file comment). */
export function mergeWire(older: WireRecord, newer: WireRecord): WireRecord {
  const merged: Record<string, JsonValue> = { ...older };
  for (const [key, value] of Object.entries(newer)) {
    if (value === null) continue;
    if (COUNTS.has(key)) {
      if (typeof value === 'number' && value > 0) merged[key] = value;
    } else if (key === 'issues') {
      if (Array.isArray(value) && value.length > 0) merged[key] = value;
    } else {
      merged[key] = value;
    }
  }
  return merged;
}
