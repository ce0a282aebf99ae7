import { ConflictError, ForbiddenError, InputError, NotFoundError, SvcError } from '../../../core/kernel/index.js';
import type { Clock, IdGenerator, RuntimeJob } from '../../../core/ports/index.js';
import { BLOB_ROUTE, type BlobUrlCapabilities, type BlockBlobs } from '../blobs/index.js';
import { conflictOnDuplicate, nextRuntimeId, type RuntimeDb } from '../store/index.js';
import { checkArtifactName, checkDigest, contentDisposition } from './artifact-names.js';
import { artifactByName, readyArtifacts, type ArtifactRecord } from './artifact-records.js';

const DAY_MS = 24 * 60 * 60 * 1000;

export interface ArtifactSettings {
  /** Default and longest retention (`SVC_ARTIFACT_RETENTION_DAYS`). */
  readonly retentionDays: number;
  readonly uploadTtlSecs: number;
  readonly downloadTtlSecs: number;
}

export interface ArtifactServiceDeps {
  readonly db: RuntimeDb;
  readonly blobs: BlockBlobs;
  readonly capabilities: BlobUrlCapabilities;
  readonly clock: Clock;
  readonly ids: IdGenerator;
  readonly settings: ArtifactSettings;
  readonly baseUrl: () => string;
}

/** The backend ids every request carries (from the token's `Actions.Results` scope on the client). */
export interface BackendIds {
  readonly runBackendId: string;
  readonly jobBackendId: string;
}

export interface CreateRequest extends BackendIds {
  readonly name: string;
  /** Epoch ms; default now + the retention. */
  readonly expiresAt: number | undefined;
  readonly mimeType: string | undefined;
}

/**
 * Artifacts v4 (RUNNER-PROTOCOL.md §5.4): one immutable upload per name and run, visible to every
 * job of the run (and of its re-run attempts), kept until its expiry. A job creates and finalizes
 * artifacts as itself (both backend ids must be its token's); it lists, downloads and deletes its
 * run's (the run backend id must be its token's). Another run's artifacts do not exist for it.
 */
export interface ArtifactService {
  create(job: RuntimeJob, request: CreateRequest): Promise<string>;
  finalize(job: RuntimeJob, request: BackendIds & { readonly name: string; readonly size: number; readonly hash: string | undefined }): Promise<ArtifactRecord>;
  list(job: RuntimeJob, request: BackendIds & { readonly name?: string; readonly id?: number }): Promise<ArtifactRecord[]>;
  downloadUrl(job: RuntimeJob, request: BackendIds & { readonly name: string }): Promise<string>;
  remove(job: RuntimeJob, request: BackendIds & { readonly name: string }): Promise<ArtifactRecord>;
}

export function createArtifactService(deps: ArtifactServiceDeps): ArtifactService {
  const { db, blobs, clock, settings } = deps;
  const same = (a: string, b: string): boolean => a.toLowerCase() === b.toLowerCase();

  function requireRun(job: RuntimeJob, ids: BackendIds): void {
    if (!same(ids.runBackendId, job.planId)) {
      throw new ForbiddenError(`this job's token is for workflow run backend ${job.planId}, not ${ids.runBackendId}`, { code: 'permission_denied' });
    }
  }

  function requireJob(job: RuntimeJob, ids: BackendIds): void {
    requireRun(job, ids);
    if (!same(ids.jobBackendId, job.jobRecordId)) {
      throw new ForbiddenError(`this job's token is for job backend ${job.jobRecordId}, not ${ids.jobBackendId}`, { code: 'permission_denied' });
    }
  }

  async function ready(job: RuntimeJob, name: string): Promise<ArtifactRecord> {
    const artifact = await artifactByName(db, job.runId, checkArtifactName(name));
    if (artifact === undefined || artifact.state !== 'ready' || artifact.expiresAt <= clock.now()) {
      throw new NotFoundError(`the workflow run has no artifact named '${name}'`, { code: 'not_found' });
    }
    return artifact;
  }

  return {
    async create(job, request) {
      requireJob(job, request);
      const name = checkArtifactName(request.name);
      const now = clock.now();
      const longest = now + settings.retentionDays * DAY_MS;
      if (request.expiresAt !== undefined && request.expiresAt <= now) throw new InputError('expires_at is in the past', { code: 'invalid_argument' });
      const expiresAt = Math.min(request.expiresAt ?? longest, longest);
      const blobId = deps.ids.uuid();
      const replaced = await conflictOnDuplicate(
        db.transaction().execute(async (tx) => {
          const existing = await artifactByName(tx, job.runId, name);
          if (existing?.state === 'ready') throw new ConflictError('an artifact with this name already exists on the workflow run', { code: 'already_exists' });
          const ownRetry = existing !== undefined && existing.jobId === job.jobId && existing.attempt === job.attempt;
          if (existing !== undefined && !ownRetry && existing.createdAt > now - settings.uploadTtlSecs * 1000) {
            throw new ConflictError('another job is uploading an artifact with this name to the workflow run', { code: 'already_exists' });
          }
          if (existing !== undefined) await tx.deleteFrom('runtime_artifacts').where('id', '=', existing.id).execute();
          await blobs.create(tx, blobId);
          await tx
            .insertInto('runtime_artifacts')
            .values({
              id: await nextRuntimeId(tx, 'artifact'),
              run_id: job.runId,
              name,
              plan_id: job.planId,
              job_record_id: job.jobRecordId,
              job_id: job.jobId,
              attempt: job.attempt,
              blob_id: blobId,
              state: 'uploading',
              size: null,
              digest: null,
              mime_type: request.mimeType ?? null,
              created_at: now,
              finalized_at: null,
              expires_at: expiresAt,
            })
            .execute();
          return existing?.blobId;
        }),
        'another job is creating an artifact with this name',
      );
      if (replaced !== undefined) await blobs.remove(replaced);
      return `${deps.baseUrl()}${BLOB_ROUTE}/${blobId}?${deps.capabilities.sign(blobId, 'w', settings.uploadTtlSecs)}`;
    },

    async finalize(job, request) {
      requireJob(job, request);
      const artifact = await artifactByName(db, job.runId, checkArtifactName(request.name));
      if (artifact === undefined) throw new NotFoundError(`no artifact named '${request.name}' was created in this workflow run`, { code: 'not_found' });
      if (artifact.state === 'ready') throw new ConflictError(`the artifact '${request.name}' is already finalized`, { code: 'already_exists' });
      if (artifact.jobId !== job.jobId || artifact.attempt !== job.attempt) {
        throw new ForbiddenError(`the artifact '${request.name}' is being uploaded by another job`, { code: 'permission_denied' });
      }
      const digest = request.hash === undefined ? null : checkDigest(request.hash);
      const blob = await blobs.state(artifact.blobId);
      if (blob?.size === undefined) throw new SvcError(`nothing was uploaded for the artifact '${request.name}'`, 412, 'failed_precondition');
      if (blob.size !== request.size) throw new InputError(`the upload holds ${blob.size} bytes, not the ${request.size} given`, { code: 'invalid_argument' });
      const now = clock.now();
      const finalized = await db.transaction().execute(async (tx) => {
        const updated = await tx
          .updateTable('runtime_artifacts')
          .set({ state: 'ready', size: blob.size ?? 0, digest, mime_type: artifact.mimeType ?? blob.contentType ?? null, finalized_at: now })
          .where('id', '=', artifact.id)
          .where('state', '=', 'uploading')
          .executeTakeFirst();
        if (updated.numUpdatedRows === 0n) return false;
        await blobs.seal(tx, artifact.blobId);
        return true;
      });
      if (!finalized) throw new ConflictError(`the artifact '${request.name}' is already finalized`, { code: 'already_exists' });
      return { ...artifact, state: 'ready', size: request.size, digest, finalizedAt: now };
    },

    async list(job, request) {
      requireRun(job, request);
      return readyArtifacts(db, job.runId, clock.now(), {
        ...(request.name === undefined ? {} : { name: request.name }),
        ...(request.id === undefined ? {} : { id: request.id }),
      });
    },

    async downloadUrl(job, request) {
      requireRun(job, request);
      const artifact = await ready(job, request.name);
      const signed = deps.capabilities.sign(artifact.blobId, 'r', settings.downloadTtlSecs, { contentDisposition: contentDisposition(artifact.name, artifact.mimeType) });
      return `${deps.baseUrl()}${BLOB_ROUTE}/${artifact.blobId}?${signed}`;
    },

    async remove(job, request) {
      requireRun(job, request);
      const artifact = await ready(job, request.name);
      const deleted = await db.deleteFrom('runtime_artifacts').where('id', '=', artifact.id).executeTakeFirst();
      if (deleted.numDeletedRows === 0n) throw new NotFoundError(`the workflow run has no artifact named '${request.name}'`, { code: 'not_found' });
      await blobs.remove(artifact.blobId);
      return artifact;
    },
  };
}
