/**
 * The runtime services driven directly over HTTP (no toolkit process): a job's token and backend
 * ids, cache entries and artifacts made with Twirp calls and Azure-style uploads, and one sweep
 * pass over the host's store.
 */
import assert from 'node:assert/strict';
import { createBlockBlobs } from '../../plugins/runtime-services/blobs/index.js';
import { sweepRuntimeServices, UPLOAD_TTL_SECS, type SweepReport } from '../../plugins/runtime-services/index.js';
import { runtimeDb } from '../../plugins/runtime-services/store/index.js';
import type { RunOptions } from './job-steps.js';
import type { DispatchedJob } from '../runner-protocol/worker-job.js';
import { dispatch, startRun } from './job-steps.js';
import type { RuntimeHost } from './runtime-host.js';
import { call, twirp, type Answer } from './twirp-client.js';

export const ONE_JOB = `on: [push, pull_request]
jobs:
  build:
    runs-on: [self-hosted, linux]
    steps:
      - run: make
`;

export const VERSION = 'f'.repeat(64);

/** A running job's runtime token and its backend ids (the token's `Actions.Results` scope). */
export interface DirectJob {
  readonly token: string;
  /** The job as dispatched (for `finish`). */
  readonly dispatched: DispatchedJob;
  readonly runId: number;
  readonly ids: { readonly workflow_run_backend_id: string; readonly workflow_job_run_backend_id: string };
}

export async function directJob(h: RuntimeHost, options: RunOptions = {}): Promise<DirectJob> {
  await startRun(h, ONE_JOB, options);
  const job = await dispatch(h);
  return {
    token: job.info.token,
    dispatched: job,
    runId: job.assignment.run.id,
    ids: { workflow_run_backend_id: job.info.planId, workflow_job_run_backend_id: job.info.jobId },
  };
}

/** Block id `n` as the Azure SDK makes them: base64 of a fixed-length string. */
export function blockId(n: number): string {
  return Buffer.from(`block-${String(n).padStart(6, '0')}`).toString('base64');
}

/** Put Block for each part (in reverse order, as concurrent uploads may land), then Put Block List in order. */
export async function uploadBlocks(url: string, parts: readonly Buffer[]): Promise<void> {
  for (const [index, part] of [...parts.entries()].reverse()) {
    const staged = await call(`${url}&comp=block&blockid=${encodeURIComponent(blockId(index))}`, { method: 'PUT', body: part });
    assert.equal(staged.status, 201, `Put Block ${index}: ${staged.text}`);
  }
  const list = `<?xml version="1.0" encoding="utf-8"?><BlockList>${parts.map((_, index) => `<Latest>${blockId(index)}</Latest>`).join('')}</BlockList>`;
  const committed = await call(`${url}&comp=blocklist`, { method: 'PUT', body: list, headers: { 'x-ms-blob-content-type': 'application/zip' } });
  assert.equal(committed.status, 201, `Put Block List: ${committed.text}`);
}

/** A cache entry created, uploaded in blocks and finalized; returns its id. */
export async function saveEntry(h: RuntimeHost, job: DirectJob, key: string, bytes: Buffer): Promise<number> {
  const created = await twirp(h.baseUrl, 'CacheService', 'CreateCacheEntry', { key, version: VERSION }, job.token);
  assert.equal(created.status, 200, created.text);
  const half = Math.ceil(bytes.length / 2);
  await uploadBlocks(String(created.body['signed_upload_url']), [bytes.subarray(0, half), bytes.subarray(half)]);
  const finalized = await twirp(h.baseUrl, 'CacheService', 'FinalizeCacheEntryUpload', { key, version: VERSION, size_bytes: String(bytes.length) }, job.token);
  assert.equal(finalized.status, 200, finalized.text);
  return Number(finalized.body['entry_id']);
}

/** The matched key of a lookup, or undefined for a miss. */
export async function lookup(h: RuntimeHost, job: DirectJob, key: string, restoreKeys: readonly string[] = []): Promise<Answer> {
  return twirp(h.baseUrl, 'CacheService', 'GetCacheEntryDownloadURL', { key, restore_keys: restoreKeys, version: VERSION }, job.token);
}

/** An artifact created, uploaded and finalized; returns its id. */
export async function saveArtifact(h: RuntimeHost, job: DirectJob, name: string, bytes: Buffer, expiresAt?: string): Promise<number> {
  const created = await twirp(h.baseUrl, 'ArtifactService', 'CreateArtifact', { ...job.ids, name, version: 7, mime_type: 'application/zip', ...(expiresAt === undefined ? {} : { expires_at: expiresAt }) }, job.token);
  assert.equal(created.status, 200, created.text);
  await uploadBlocks(String(created.body['signed_upload_url']), [bytes]);
  const finalized = await twirp(h.baseUrl, 'ArtifactService', 'FinalizeArtifact', { ...job.ids, name, size: String(bytes.length) }, job.token);
  assert.equal(finalized.status, 200, finalized.text);
  return Number(finalized.body['artifact_id']);
}

/** One sweep pass over the host's store with the given limits (defaults: the plugin's). */
export async function sweep(h: RuntimeHost, limits: { readonly maxBytes?: number; readonly maxAgeDays?: number } = {}): Promise<SweepReport> {
  const db = runtimeDb(h.database);
  return sweepRuntimeServices({
    db,
    blobs: createBlockBlobs(db, h.blobStore, h.clock),
    clock: h.clock,
    cache: { maxBytesPerRepository: limits.maxBytes ?? 10 * 1024 ** 3, maxUnusedMs: (limits.maxAgeDays ?? 7) * 86_400_000, staleReservationMs: UPLOAD_TTL_SECS * 1000 },
    staleUploadMs: UPLOAD_TTL_SECS * 1000,
  });
}

/** Keys the plugin holds in the blob store. */
export async function storedKeys(h: RuntimeHost): Promise<string[]> {
  const keys: string[] = [];
  for await (const blob of h.blobStore.list('runtime-services/')) keys.push(blob.key);
  return keys;
}
