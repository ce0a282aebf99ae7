import type { ArtifactRecord } from './artifact-records.js';

/**
 * One artifact in `GET /api/v1/runs/{run_id}/artifacts` (README, "Artifacts"); `svc artifacts`
 * reads the same type (a type import: nothing of the server loads in the CLI).
 */
export interface ArtifactView {
  readonly id: number;
  readonly name: string;
  readonly size: number;
  /** `sha256:<hex>` as the uploading client computed it; null when it sent none. */
  readonly digest: string | null;
  /** `application/zip` for what upload-artifact zipped; a raw upload's own type otherwise. */
  readonly content_type: string | null;
  /** The engine job that uploaded it (`svc status` lists job ids). */
  readonly job_id: number;
  /** When it was finalized (became visible). */
  readonly created_at: string;
  readonly expires_at: string;
}

export interface ArtifactListView {
  readonly artifacts: readonly ArtifactView[];
}

export function toArtifactView(artifact: ArtifactRecord): ArtifactView {
  return {
    id: artifact.id,
    name: artifact.name,
    size: artifact.size ?? 0,
    digest: artifact.digest,
    content_type: artifact.mimeType,
    job_id: artifact.jobId,
    created_at: new Date(artifact.finalizedAt ?? artifact.createdAt).toISOString(),
    expires_at: new Date(artifact.expiresAt).toISOString(),
  };
}
