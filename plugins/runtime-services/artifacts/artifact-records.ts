import type { Selectable } from 'kysely';
import { num, numOrNull, type RuntimeArtifactsTable, type RuntimeExecutor } from '../store/index.js';

export interface ArtifactRecord {
  readonly id: number;
  readonly runId: number;
  readonly name: string;
  readonly planId: string;
  readonly jobRecordId: string;
  readonly jobId: number;
  readonly attempt: number;
  readonly blobId: string;
  readonly state: 'uploading' | 'ready';
  readonly size: number | null;
  readonly digest: string | null;
  readonly mimeType: string | null;
  readonly createdAt: number;
  readonly finalizedAt: number | null;
  readonly expiresAt: number;
}

export function toArtifact(row: Selectable<RuntimeArtifactsTable>): ArtifactRecord {
  return {
    id: num(row.id),
    runId: num(row.run_id),
    name: row.name,
    planId: row.plan_id,
    jobRecordId: row.job_record_id,
    jobId: num(row.job_id),
    attempt: row.attempt,
    blobId: row.blob_id,
    state: row.state === 'ready' ? 'ready' : 'uploading',
    size: numOrNull(row.size),
    digest: row.digest,
    mimeType: row.mime_type,
    createdAt: num(row.created_at),
    finalizedAt: numOrNull(row.finalized_at),
    expiresAt: num(row.expires_at),
  };
}

export async function artifactByName(db: RuntimeExecutor, runId: number, name: string): Promise<ArtifactRecord | undefined> {
  const row = await db.selectFrom('runtime_artifacts').selectAll().where('run_id', '=', runId).where('name', '=', name).executeTakeFirst();
  return row === undefined ? undefined : toArtifact(row);
}

/** A run's ready, unexpired artifacts, oldest first (the toolkit's `latest` keeps the last of a name). */
export async function readyArtifacts(db: RuntimeExecutor, runId: number, now: number, filter: { readonly name?: string; readonly id?: number }): Promise<ArtifactRecord[]> {
  let query = db.selectFrom('runtime_artifacts').selectAll().where('run_id', '=', runId).where('state', '=', 'ready').where('expires_at', '>', now);
  if (filter.name !== undefined) query = query.where('name', '=', filter.name);
  if (filter.id !== undefined) query = query.where('id', '=', filter.id);
  return (await query.orderBy('id').execute()).map(toArtifact);
}
