import type { Clock } from '../../../core/ports/index.js';
import { mergeRecord, type RecordJson } from './timeline-record.js';
import type { TimelineRecordsTable, WorkerDb } from './worker-tables.js';

/** One job attempt's place on its run's timeline. */
export interface JobScope {
  readonly planId: string;
  readonly timelineId: string;
  /** The job's GUID (the message's `jobId`, its timeline record id). */
  readonly jobRecordId: string;
  /** Engine job row id and attempt. */
  readonly jobId: number;
  readonly attempt: number;
  readonly runId: number;
}

export interface StoredRecord {
  readonly record: RecordJson;
  readonly issuesSent: number;
  readonly changeId: number;
}

/** A record after an update, and how many of its issues had been forwarded before it. */
export interface MergedRecord extends StoredRecord {
  readonly sentBefore: number;
}

export interface RecordsStore {
  /** The job's records on its timeline (in no particular order). */
  list(scope: JobScope): Promise<StoredRecord[]>;
  get(scope: JobScope, recordId: string): Promise<StoredRecord | undefined>;
  /**
   * Merges records into the stored ones in one transaction and marks all their issues as
   * forwarded (the caller forwards the ones past `sentBefore`, and calls `unsend` if that fails).
   * Records repeated in one batch are merged in order.
   */
  merge(scope: JobScope, incoming: readonly RecordJson[]): Promise<MergedRecord[]>;
  /** Puts a record's forwarded-issue count back (forwarding failed, the next update retries). */
  unsend(scope: JobScope, recordId: string, issuesSent: number): Promise<void>;
}

function toStored(row: Pick<TimelineRecordsTable, 'record' | 'issues_sent' | 'change_id'>): StoredRecord {
  return { record: JSON.parse(row.record) as RecordJson, issuesSent: Number(row.issues_sent), changeId: Number(row.change_id) };
}

function issueCount(record: RecordJson): number {
  const issues = record['issues'];
  return Array.isArray(issues) ? issues.length : 0;
}

export function createRecordsStore(db: WorkerDb, clock: Clock, rowLocks: boolean): RecordsStore {
  const ofJob = (scope: JobScope) =>
    db.selectFrom('runner_timeline_records').where('timeline_id', '=', scope.timelineId).where('job_record_id', '=', scope.jobRecordId);

  return {
    async list(scope) {
      const rows = await ofJob(scope).select(['record', 'issues_sent', 'change_id']).execute();
      return rows.map(toStored);
    },
    async get(scope, recordId) {
      const row = await ofJob(scope).select(['record', 'issues_sent', 'change_id']).where('record_id', '=', recordId).executeTakeFirst();
      return row ? toStored(row) : undefined;
    },
    async merge(scope, incoming) {
      // An empty update changes nothing (and `in ()` is no SQL PostgreSQL takes).
      if (incoming.length === 0) return [];
      const now = clock.now();
      return db.transaction().execute(async (tx) => {
        const ids = [...new Set(incoming.map((record) => String(record['id'])))];
        let query = tx
          .selectFrom('runner_timeline_records')
          .select(['record_id', 'record', 'issues_sent', 'change_id'])
          .where('timeline_id', '=', scope.timelineId)
          .where('job_record_id', '=', scope.jobRecordId)
          .where('record_id', 'in', ids);
        if (rowLocks) query = query.forUpdate();
        const existing = new Map((await query.execute()).map((row) => [row.record_id, toStored(row)]));
        const results = new Map<string, MergedRecord>();
        for (const record of incoming) {
          const id = String(record['id']);
          const before = results.get(id) ?? existing.get(id);
          const merged = mergeRecord(before?.record, record);
          const sentBefore = before?.issuesSent ?? 0;
          results.set(id, { record: merged, issuesSent: Math.max(sentBefore, issueCount(merged)), changeId: (before?.changeId ?? 0) + 1, sentBefore: results.get(id)?.sentBefore ?? sentBefore });
        }
        for (const [id, result] of results) {
          const values = { record: JSON.stringify(result.record), issues_sent: result.issuesSent, change_id: result.changeId, updated_at: now };
          if (existing.has(id)) {
            await tx
              .updateTable('runner_timeline_records')
              .set(values)
              .where('timeline_id', '=', scope.timelineId)
              .where('job_record_id', '=', scope.jobRecordId)
              .where('record_id', '=', id)
              .execute();
          } else {
            await tx
              .insertInto('runner_timeline_records')
              .values({ timeline_id: scope.timelineId, job_record_id: scope.jobRecordId, record_id: id, job_id: scope.jobId, attempt: scope.attempt, ...values })
              .execute();
          }
        }
        return [...results.values()];
      });
    },
    async unsend(scope, recordId, issuesSent) {
      await db
        .updateTable('runner_timeline_records')
        .set({ issues_sent: issuesSent })
        .where('timeline_id', '=', scope.timelineId)
        .where('job_record_id', '=', scope.jobRecordId)
        .where('record_id', '=', recordId)
        .execute();
    },
  };
}
