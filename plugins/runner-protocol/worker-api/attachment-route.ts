/**
 * Attachments (§4.5): `PUT …/records/{recordId}/attachments/{type}/{name}`, octet-stream. The
 * runner sends step summaries here (`Checks.Step.Summary`, on the job record, named by the
 * step's record id, already secret-masked) and diagnostics; the bytes go to the blob store
 * (attachments-store.ts), keyed by job, record, type and name, so a resend replaces them.
 */
import type { FastifyInstance } from 'fastify';
import { EMPTY_GUID } from '../../../core/protocol/index.js';
import { vssDate } from '../vss/index.js';
import { workerJob } from './job-access.js';
import { workerPath } from './route-paths.js';
import { AttachmentParams, type AttachmentParamsType } from './schemas.js';
import type { WorkerRouteDeps } from './worker-deps.js';

/** Step summaries are capped at 1 MiB by the runner; diagnostics can be larger. */
export const ATTACHMENT_BODY_LIMIT = 32 * 1024 * 1024;

export function registerAttachmentRoute(app: FastifyInstance, deps: WorkerRouteDeps): void {
  app.put<{ Params: AttachmentParamsType; Body: Buffer | string }>(
    workerPath('attachments'),
    { schema: { params: AttachmentParams }, bodyLimit: ATTACHMENT_BODY_LIMIT },
    async (request) => {
      const worker = await workerJob(deps.engine, request);
      const { type, name } = request.params;
      const recordId = request.params.recordId.toLowerCase();
      const body = typeof request.body === 'string' ? Buffer.from(request.body, 'utf8') : Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0);
      const stored = await deps.attachments.put(worker.scope, recordId, type, name, body);
      return {
        type,
        name,
        createdOn: vssDate(stored.createdAt),
        lastChangedOn: vssDate(stored.createdAt),
        lastChangedBy: EMPTY_GUID,
        timelineId: worker.scope.timelineId,
        recordId,
      };
    },
  );
}
