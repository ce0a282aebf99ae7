import type { BlockBlobs } from '../blobs/index.js';
import { num, type RuntimeDb } from '../store/index.js';

/** Rows looked at per pass; the next pass continues. */
const BATCH = 500;

/**
 * One retention pass: artifacts past their `expires_at` and uploads never finalized within the
 * upload window are deleted, row first (conditionally), then their bytes. Returns how many went.
 */
export async function expireArtifacts(db: RuntimeDb, blobs: BlockBlobs, now: number, staleUploadMs: number): Promise<number> {
  const expired = await db
    .selectFrom('runtime_artifacts')
    .select(['id', 'blob_id', 'state', 'created_at'])
    .where((eb) => eb.or([eb('expires_at', '<=', now), eb.and([eb('state', '=', 'uploading'), eb('created_at', '<', now - staleUploadMs)])]))
    .limit(BATCH)
    .execute();
  let dropped = 0;
  for (const row of expired) {
    const deleted = await db.deleteFrom('runtime_artifacts').where('id', '=', num(row.id)).where('state', '=', row.state).executeTakeFirst();
    if (deleted.numDeletedRows === 0n) continue;
    await blobs.remove(row.blob_id);
    dropped += 1;
  }
  return dropped;
}
