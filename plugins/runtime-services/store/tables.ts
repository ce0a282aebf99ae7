/**
 * Row types of the runtime-services tables, as Kysely sees them. Times are epoch milliseconds,
 * sizes bytes; PostgreSQL returns `bigint` columns as strings, so readers convert with `Number`.
 */
export type RuntimeSequencesTable = {
  name: string;
  value: number | string;
};

/**
 * Uploaded bytes behind a signed URL, in Azure block-blob terms: staged blocks become the blob's
 * content when a block list is committed (or in one `Put Blob`); `sealed` once the service that
 * owns it finalized it (a cache entry, an artifact), after which it only reads.
 */
export type RuntimeBlobsTable = {
  id: string;
  /** `open` (accepts writes) or `sealed`. */
  state: string;
  /** JSON `[[blobStoreKey, size], ...]` in content order; null until something was committed. */
  manifest: string | null;
  size: number | string | null;
  content_type: string | null;
  created_at: number | string;
  updated_at: number | string;
};

/** One cache entry: a key and version in one repository's ref scope. */
export type RuntimeCacheEntriesTable = {
  id: number | string;
  repository: string;
  /** The ref that wrote it (`refs/heads/main`, `refs/pull/7/merge`). */
  scope: string;
  cache_key: string;
  version: string;
  blob_id: string;
  /** `reserved` (being uploaded) or `ready`. */
  state: string;
  size: number | string | null;
  run_id: number | string;
  job_id: number | string;
  attempt: number;
  created_at: number | string;
  finalized_at: number | string | null;
  last_used_at: number | string;
};

/** One artifact of a run (names are unique per run, across its attempts). */
export type RuntimeArtifactsTable = {
  id: number | string;
  run_id: number | string;
  name: string;
  /** The uploading job: its plan id, job message id, engine job id and attempt. */
  plan_id: string;
  job_record_id: string;
  job_id: number | string;
  attempt: number;
  blob_id: string;
  /** `uploading` or `ready`. */
  state: string;
  size: number | string | null;
  /** `sha256:<hex>` as the client reported it. */
  digest: string | null;
  mime_type: string | null;
  created_at: number | string;
  finalized_at: number | string | null;
  expires_at: number | string;
};

export type RuntimeTables = {
  runtime_sequences: RuntimeSequencesTable;
  runtime_blobs: RuntimeBlobsTable;
  runtime_cache_entries: RuntimeCacheEntriesTable;
  runtime_artifacts: RuntimeArtifactsTable;
};
