import type { LogMasker } from './log-masker.js';
import type { RecordIssue, TimelineRecord } from './reporter-types.js';

/** An issue as it may leave the process: message and data values masked. */
export function maskIssue(issue: RecordIssue, masker: LogMasker): RecordIssue {
  const data: Record<string, string> = {};
  for (const [key, value] of Object.entries(issue.data)) data[key] = masker.mask(value);
  return { ...issue, message: masker.mask(issue.message), data };
}

/** A record as it may leave the process: its name (a display name can hold a secret) and issues masked. */
export function maskRecord(record: TimelineRecord, masker: LogMasker): TimelineRecord {
  return { ...record, name: masker.mask(record.name), issues: record.issues.map((issue) => maskIssue(issue, masker)) };
}
