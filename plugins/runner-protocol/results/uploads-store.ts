/**
 * Blobs a job uploads through signed URLs, with the semantics of the Azure blobs the runner was
 * written for (§4.6): one PUT makes a whole (block) blob; an empty PUT creates an append blob,
 * `comp=appendblock` appends a block, `seal=true` seals it. Each block is its own blob in the
 * store, registered here in order once its bytes are written, so an append never rewrites what
 * is there, and the state checks (created? sealed? completed?) run in one transaction.
 */
import { ConflictError, NotFoundError, SvcError } from '../../../core/kernel/index.js';
import type { Clock, IdGenerator } from '../../../core/ports/index.js';
import type { JobScope } from '../worker-api/index.js';
import type { ResultsDb, ResultsExecutor, ResultsUploadsTable } from './results-tables.js';

export const UPLOAD_KINDS = ['step-log', 'job-log', 'step-summary', 'diag-logs'] as const;
export type UploadKind = (typeof UPLOAD_KINDS)[number];
export type BlobType = 'append' | 'block';

export interface UploadRecord {
  readonly id: string;
  readonly kind: UploadKind;
  /** The step's record id; '' for the job's own uploads. */
  readonly stepId: string;
  /** The job attempt it belongs to. */
  readonly scope: JobScope;
  /** Undefined before the first PUT. */
  readonly blobType: BlobType | undefined;
  readonly sealed: boolean;
  readonly blockCount: number;
  readonly bytes: number;
  readonly logId: number | undefined;
  /** Set once the upload became what it stands for (metadata call, or the diagnostic logs' last PUT). */
  readonly completedAt: number | undefined;
}

export interface UploadBlock {
  readonly number: number;
  readonly blobKey: string;
  readonly bytes: number;
}

/** A block whose bytes are in the blob store already. */
export interface NewBlock {
  readonly blobKey: string;
  readonly bytes: number;
}

export interface UploadsStore {
  /** The upload of a job's kind and step, made on first request. */
  ensure(scope: JobScope, kind: UploadKind, stepId: string): Promise<UploadRecord>;
  get(id: string): Promise<UploadRecord | undefined>;
  find(scope: JobScope, kind: UploadKind, stepId: string): Promise<UploadRecord | undefined>;
  /**
   * Replaces the blob (Azure's Put Blob): an empty append blob (`block` undefined) or a whole blob
   * of one block. Returns the blob keys of the blocks it replaced, for the caller to delete.
   */
  replace(id: string, type: BlobType, block: NewBlock | undefined, maxBytes: number): Promise<{ readonly upload: UploadRecord; readonly replaced: readonly string[] }>;
  /** Appends a block (none: only seals) to an append blob, sealing it after when asked. */
  append(id: string, block: NewBlock | undefined, seal: boolean, maxBytes: number): Promise<UploadRecord>;
  blocks(id: string): Promise<UploadBlock[]>;
  /** Records the TaskLog an upload's blocks are stored under, unless one is; the one in effect. */
  useLog(id: string, logId: number): Promise<number>;
  /** No more writes: the upload became what it stands for. */
  complete(id: string): Promise<void>;
}

function toUpload(row: ResultsUploadsTable): UploadRecord {
  return {
    id: row.id,
    kind: row.kind as UploadKind,
    stepId: row.step_id,
    scope: {
      planId: row.plan_id,
      timelineId: row.timeline_id,
      jobRecordId: row.job_record_id,
      jobId: Number(row.job_id),
      attempt: Number(row.attempt),
      runId: Number(row.run_id),
    },
    blobType: (row.blob_type ?? undefined) as BlobType | undefined,
    sealed: Number(row.sealed) === 1,
    blockCount: Number(row.block_count),
    bytes: Number(row.bytes),
    logId: row.log_id === null ? undefined : Number(row.log_id),
    completedAt: row.completed_at === null ? undefined : Number(row.completed_at),
  };
}

function completed(upload: UploadRecord): ConflictError {
  return new ConflictError(`the ${upload.kind} upload ${upload.stepId === '' ? 'of this job' : `of step ${upload.stepId}`} is complete; it takes no more writes`, { code: 'upload_completed' });
}

/** Throws unless the blob may be replaced (Azure's Put Blob): anything but a completed upload. */
export function checkReplace(upload: UploadRecord): void {
  if (upload.completedAt !== undefined) throw completed(upload);
}

/** Throws unless a block may be appended (or, `sealOnly`, the blob sealed). */
export function checkAppend(upload: UploadRecord, sealOnly: boolean): void {
  if (upload.completedAt !== undefined) throw completed(upload);
  if (upload.blobType === undefined) throw new NotFoundError(`the ${upload.kind} blob does not exist; create it first (PUT without comp)`, { code: 'blob_not_found' });
  if (upload.blobType === 'block') throw new ConflictError(`the ${upload.kind} blob is a block blob; blocks are appended to append blobs only`, { code: 'invalid_blob_type' });
  if (upload.sealed && !sealOnly) throw new ConflictError(`the ${upload.kind} blob is sealed; it takes no more blocks`, { code: 'blob_sealed' });
}

/** 413, as Azure answers a blob grown past its limit. */
export function tooLarge(what: string, limit: number): SvcError {
  return new SvcError(`${what} is larger than its limit of ${limit} bytes`, 413, 'upload_too_large', { details: { limit } });
}

export function createUploadsStore(db: ResultsDb, clock: Clock, ids: IdGenerator, rowLocks: boolean): UploadsStore {
  const read = async (executor: ResultsExecutor, id: string, lock = false) => {
    let query = executor.selectFrom('runner_results_uploads').selectAll().where('id', '=', id);
    if (lock && rowLocks) query = query.forUpdate();
    const row = await query.executeTakeFirst();
    return row === undefined ? undefined : toUpload(row);
  };
  const locked = async (executor: ResultsExecutor, id: string): Promise<UploadRecord> => {
    const upload = await read(executor, id, true);
    if (upload === undefined) throw new NotFoundError(`upload ${id} does not exist`, { code: 'blob_not_found' });
    return upload;
  };
  const find = async (scope: JobScope, kind: UploadKind, stepId: string) => {
    const row = await db
      .selectFrom('runner_results_uploads')
      .selectAll()
      .where('job_record_id', '=', scope.jobRecordId)
      .where('kind', '=', kind)
      .where('step_id', '=', stepId)
      .executeTakeFirst();
    return row === undefined ? undefined : toUpload(row);
  };
  const addBlock = (executor: ResultsExecutor, uploadId: string, number: number, block: NewBlock) =>
    executor.insertInto('runner_results_blocks').values({ upload_id: uploadId, number, blob_key: block.blobKey, bytes: block.bytes }).execute();

  return {
    async ensure(scope, kind, stepId) {
      const now = clock.now();
      await db
        .insertInto('runner_results_uploads')
        .values({
          id: ids.uuid(),
          job_record_id: scope.jobRecordId,
          kind,
          step_id: stepId,
          plan_id: scope.planId,
          timeline_id: scope.timelineId,
          run_id: scope.runId,
          job_id: scope.jobId,
          attempt: scope.attempt,
          blob_type: null,
          sealed: 0,
          block_count: 0,
          bytes: 0,
          log_id: null,
          completed_at: null,
          created_at: now,
          updated_at: now,
        })
        .onConflict((oc) => oc.columns(['job_record_id', 'kind', 'step_id']).doNothing())
        .execute();
      const found = await find(scope, kind, stepId);
      if (found === undefined) throw new Error(`the ${kind} upload of job ${scope.jobRecordId} vanished after it was made`);
      return found;
    },
    get: (id) => read(db, id),
    find,
    async replace(id, type, block, maxBytes) {
      return db.transaction().execute(async (tx) => {
        const upload = await locked(tx, id);
        checkReplace(upload);
        if (block !== undefined && block.bytes > maxBytes) throw tooLarge(`a ${upload.kind} upload`, maxBytes);
        const old = await tx.selectFrom('runner_results_blocks').select('blob_key').where('upload_id', '=', id).execute();
        await tx.deleteFrom('runner_results_blocks').where('upload_id', '=', id).execute();
        if (block !== undefined) await addBlock(tx, id, 1, block);
        await tx
          .updateTable('runner_results_uploads')
          .set({ blob_type: type, sealed: type === 'block' ? 1 : 0, block_count: block === undefined ? 0 : 1, bytes: block?.bytes ?? 0, updated_at: clock.now() })
          .where('id', '=', id)
          .execute();
        const after = await read(tx, id);
        if (after === undefined) throw new Error(`upload ${id} vanished while it was written`);
        return { upload: after, replaced: old.map((row) => row.blob_key) };
      });
    },
    async append(id, block, seal, maxBytes) {
      return db.transaction().execute(async (tx) => {
        const upload = await locked(tx, id);
        checkAppend(upload, block === undefined && seal);
        // Sealing a sealed blob again changes nothing (a resent seal).
        if (upload.sealed) return upload;
        if (block !== undefined) {
          if (upload.bytes + block.bytes > maxBytes) throw tooLarge(`the ${upload.kind} blob with this block`, maxBytes);
          await addBlock(tx, id, upload.blockCount + 1, block);
        }
        await tx
          .updateTable('runner_results_uploads')
          .set({
            block_count: upload.blockCount + (block === undefined ? 0 : 1),
            bytes: upload.bytes + (block?.bytes ?? 0),
            sealed: seal ? 1 : 0,
            updated_at: clock.now(),
          })
          .where('id', '=', id)
          .execute();
        const after = await read(tx, id);
        if (after === undefined) throw new Error(`upload ${id} vanished while it was written`);
        return after;
      });
    },
    async blocks(id) {
      const rows = await db.selectFrom('runner_results_blocks').selectAll().where('upload_id', '=', id).orderBy('number').execute();
      return rows.map((row) => ({ number: Number(row.number), blobKey: row.blob_key, bytes: Number(row.bytes) }));
    },
    async useLog(id, logId) {
      await db.updateTable('runner_results_uploads').set({ log_id: logId }).where('id', '=', id).where('log_id', 'is', null).execute();
      const upload = await read(db, id);
      if (upload?.logId === undefined) throw new Error(`upload ${id} has no log after one was set`);
      return upload.logId;
    },
    async complete(id) {
      const now = clock.now();
      await db.updateTable('runner_results_uploads').set({ completed_at: now, sealed: 1, updated_at: now }).where('id', '=', id).where('completed_at', 'is', null).execute();
    },
  };
}
