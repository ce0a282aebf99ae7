/**
 * What a finished upload becomes, in the same places the legacy flow puts it:
 *
 * - a step's log: its blocks, in order, become the engine's log chunks through worker-api's page
 *   storing, exactly as legacy log pages do (each block is a file the runner wrote like a page: a
 *   BOM, then `<timestamp> <text>` lines, whole lines only). Blocks are claimed under one TaskLog
 *   by their blob keys, so a repeated metadata call (the runner's HTTP retry) stores nothing
 *   twice and a failed one goes on from the first block not stored;
 * - the job's own log (which repeats every step line): its blocks become the parts of the job's
 *   raw log, claimed the same way, then its job-only lines are stored (worker-api job-log.ts);
 *   the runner sends it after every step log;
 * - a step summary: the `Checks.Step.Summary` attachment of the job record named by the step's
 *   record id (worker-api attachments);
 * - the diagnostic logs: a `Results.Core.DiagnosticLog` attachment of the job record.
 *
 * Then the upload is complete and takes no more writes.
 */
import { buffer } from 'node:stream/consumers';
import type { Reporting } from '../../../core/engine/index.js';
import { InputError, type Logger } from '../../../core/kernel/index.js';
import type { BlobStore } from '../../../core/ports/index.js';
import { landJobLog, storeJobLogPage, storeLogPage, type AttachmentsStore, type LogsStore } from '../worker-api/index.js';
import type { UploadRecord, UploadsStore } from './uploads-store.js';

export const STEP_SUMMARY_ATTACHMENT = 'Checks.Step.Summary';
export const DIAGNOSTIC_LOGS_ATTACHMENT = 'Results.Core.DiagnosticLog';
export const DIAGNOSTIC_LOGS_NAME = 'diagnostic-logs.zip';

export interface LandingDeps {
  readonly uploads: UploadsStore;
  readonly logs: LogsStore;
  readonly attachments: AttachmentsStore;
  readonly reporting: Reporting;
  readonly blobs: BlobStore;
  readonly logger: Logger;
}

export interface Landing {
  /** The log's lines into the engine under `stepNumber` (undefined: outside any step; the job log: its raw log and job-only lines); how many lines it has. */
  log(upload: UploadRecord, runnerId: string, stepNumber: number | undefined): Promise<number>;
  /** The summary as the step's attachment; `size` is what the runner says it uploaded. */
  summary(upload: UploadRecord, size: number): Promise<void>;
  diagnostics(upload: UploadRecord): Promise<void>;
}

export function createLanding(deps: LandingDeps): Landing {
  const blockBytes = async (upload: UploadRecord, blobKey: string): Promise<Buffer> => {
    const stream = await deps.blobs.get(blobKey);
    // The row is written after its bytes, so a missing blob means the store lost it.
    if (stream === undefined) throw new Error(`block ${blobKey} of the ${upload.kind} upload ${upload.id} is missing from the blob store`);
    return buffer(stream);
  };
  const wholeBytes = async (upload: UploadRecord): Promise<Buffer> => {
    const blocks = await deps.uploads.blocks(upload.id);
    return Buffer.concat(await Promise.all(blocks.map((block) => blockBytes(upload, block.blobKey))));
  };

  return {
    async log(upload, runnerId, stepNumber) {
      const { scope } = upload;
      const recordId = upload.stepId === '' ? scope.jobRecordId : upload.stepId;
      let logId = upload.logId;
      if (logId === undefined) {
        const created = await deps.logs.create(scope, `results\\${upload.stepId === '' ? 'job' : upload.stepId}`, recordId);
        logId = await deps.uploads.useLog(upload.id, created.id);
      }
      let log = await deps.logs.get(logId);
      if (log === undefined) throw new Error(`log ${logId} of the ${upload.kind} upload ${upload.id} is gone`);
      if (upload.completedAt === undefined) {
        const target = { runId: scope.runId, jobId: scope.jobId, attempt: scope.attempt, runnerId };
        for (const [index, block] of (await deps.uploads.blocks(upload.id)).entries()) {
          const bytes = await blockBytes(upload, block.blobKey);
          log = upload.kind === 'job-log' ? await storeJobLogPage(deps, target, log, block.blobKey, bytes, index + 1) : await storeLogPage(deps, { jobId: scope.jobId, runnerId, stepNumber }, log, block.blobKey, bytes);
        }
        if (upload.kind === 'job-log') await landJobLog(deps, target, log);
        await deps.uploads.complete(upload.id);
      }
      return log.lineCount;
    },
    async summary(upload, size) {
      if (upload.completedAt !== undefined) return;
      const body = await wholeBytes(upload);
      if (body.length !== size) {
        throw new InputError(`the step summary has ${body.length} bytes uploaded, not the ${size} its metadata says; upload it again`, { code: 'summary_size_mismatch' });
      }
      await deps.attachments.put(upload.scope, upload.scope.jobRecordId, STEP_SUMMARY_ATTACHMENT, upload.stepId, body);
      await deps.uploads.complete(upload.id);
    },
    async diagnostics(upload) {
      if (upload.completedAt !== undefined) return;
      await deps.attachments.put(upload.scope, upload.scope.jobRecordId, DIAGNOSTIC_LOGS_ATTACHMENT, DIAGNOSTIC_LOGS_NAME, await wholeBytes(upload));
      await deps.uploads.complete(upload.id);
      deps.logger.info({ jobId: upload.scope.jobId, bytes: upload.bytes }, 'stored the runner diagnostic logs of a job');
    },
  };
}
