import { createHash } from 'node:crypto';
import type { BlobStore, Clock } from '../../../core/ports/index.js';
import type { JobScope } from './records-store.js';
import type { WorkerDb } from './worker-tables.js';

export interface StoredAttachment {
  readonly type: string;
  readonly name: string;
  readonly recordId: string;
  readonly blobKey: string;
  readonly bytes: number;
  readonly createdAt: number;
}

export interface AttachmentsStore {
  /** Stores (or replaces) the attachment `type`/`name` of a record. */
  put(scope: JobScope, recordId: string, type: string, name: string, body: Buffer): Promise<StoredAttachment>;
  list(scope: JobScope): Promise<StoredAttachment[]>;
}

const SAFE_SEGMENT = /^[A-Za-z0-9._-]{1,100}$/;

/** A blob-key segment for any text: itself when it is a safe segment, else a digest of it. */
function segment(value: string): string {
  return SAFE_SEGMENT.test(value) && value !== '.' && value !== '..' ? value : `h-${createHash('sha256').update(value).digest('hex').slice(0, 40)}`;
}

/** `runner-attachments/<run>/<job>/<attempt>/<record>/<type>/<name>`. */
export function attachmentBlobKey(scope: JobScope, recordId: string, type: string, name: string): string {
  return ['runner-attachments', String(scope.runId), String(scope.jobId), String(scope.attempt), segment(recordId), segment(type), segment(name)].join('/');
}

export function createAttachmentsStore(db: WorkerDb, blobs: BlobStore, clock: Clock): AttachmentsStore {
  return {
    async put(scope, recordId, type, name, body) {
      const key = attachmentBlobKey(scope, recordId, type, name);
      // Bytes first, then the row that points at them: a reader never finds a row without its blob.
      await blobs.put(key, body);
      const now = clock.now();
      const row = {
        timeline_id: scope.timelineId,
        job_record_id: scope.jobRecordId,
        record_id: recordId,
        type,
        name,
        job_id: scope.jobId,
        run_id: scope.runId,
        blob_key: key,
        bytes: body.length,
        created_at: now,
      };
      await db
        .insertInto('runner_task_attachments')
        .values(row)
        .onConflict((oc) => oc.columns(['timeline_id', 'job_record_id', 'record_id', 'type', 'name']).doUpdateSet({ blob_key: key, bytes: body.length, created_at: now }))
        .execute();
      return { type, name, recordId, blobKey: key, bytes: body.length, createdAt: now };
    },
    async list(scope) {
      const rows = await db
        .selectFrom('runner_task_attachments')
        .selectAll()
        .where('timeline_id', '=', scope.timelineId)
        .where('job_record_id', '=', scope.jobRecordId)
        .orderBy('created_at')
        .execute();
      return rows.map((row) => ({ type: row.type, name: row.name, recordId: row.record_id, blobKey: row.blob_key, bytes: Number(row.bytes), createdAt: Number(row.created_at) }));
    },
  };
}
