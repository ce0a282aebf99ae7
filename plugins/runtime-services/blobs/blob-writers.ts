import { AuthError, isSvcError } from '../../../core/kernel/index.js';
import type { RuntimeJobs } from '../../../core/ports/index.js';
import { num, type RuntimeDb } from '../store/index.js';

/**
 * Whether a signed write URL may still write its blob: the job attempt that reserved the cache
 * entry or created the artifact the blob belongs to must still run. A signed URL outlives its
 * job (its expiry is hours), and a job's credentials lose their powers when the job ends. A blob
 * of a finished entry is sealed anyway; this covers uploads their job never finalized.
 */
export type BlobWriterCheck = (blobId: string) => Promise<void>;

export function createBlobWriterCheck(db: RuntimeDb, runtimeJobs: Pick<RuntimeJobs, 'requireLive'>): BlobWriterCheck {
  return async (blobId) => {
    const owner =
      (await db.selectFrom('runtime_cache_entries').select(['run_id', 'job_id', 'attempt']).where('blob_id', '=', blobId).where('state', '=', 'reserved').executeTakeFirst()) ??
      (await db.selectFrom('runtime_artifacts').select(['run_id', 'job_id', 'attempt']).where('blob_id', '=', blobId).where('state', '=', 'uploading').executeTakeFirst());
    if (owner === undefined) return;
    try {
      await runtimeJobs.requireLive({ runId: num(owner.run_id), jobId: num(owner.job_id), attempt: Number(owner.attempt) });
    } catch (error) {
      if (!isSvcError(error) || error.status !== 401) throw error;
      throw new AuthError(`the job that was given this upload URL has ended: ${error.message}`, { code: 'signature_expired' });
    }
  };
}
