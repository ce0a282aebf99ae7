/**
 * Row types of the engine's tables, as Kysely sees them. Times are epoch milliseconds
 * (bigint), flags are 0/1 integers (the same on SQLite and PostgreSQL), JSON is text.
 */
export type SequencesTable = {
  name: string;
  value: number;
};

export type RunsTable = {
  id: number;
  workflow_id: string;
  workflow_path: string;
  workflow_name: string;
  repository: string;
  run_number: number;
  run_attempt: number;
  display_title: string;
  event: string;
  ref: string;
  sha: string;
  actor: string;
  trigger: string;
  status: string;
  conclusion: string | null;
  reason: string | null;
  concurrency_group: string | null;
  cancel_in_progress: number;
  /** `single` or `max` (0004). */
  concurrency_queue: string;
  /** Order of entry into the group's queue, from the `concurrency_tickets` counter (0004). */
  concurrency_ticket: number | null;
  payload: string;
  cancel_requested: number;
  created_at: number;
  updated_at: number;
  started_at: number | null;
  completed_at: number | null;
  /** The `vars` context the run was planned with, JSON (0007). */
  vars: string;
  /** Secret names the run's workflows could read at creation, JSON list (0007). */
  secret_names: string;
};

/**
 * Run-supplied values (0007), one row per run that has some: their names, kept for good (a
 * re-run names what it would need), and the values sealed under the secrets key, erased
 * (null) when the run reaches a terminal state.
 */
export type RunValuesTable = {
  run_id: number;
  secret_names: string;
  var_names: string;
  sealed: string | null;
};

export type RunFilesTable = {
  run_id: number;
  path: string;
  content: string;
  /** A file of another repository: the ref as GitHub names it (`refs/tags/v1`, or the sha). */
  ref: string | null;
  /** A file of another repository: the commit it was read at. */
  sha: string | null;
};

export type JobsTable = {
  id: number;
  run_id: number;
  job_key: string;
  instance_id: string;
  name: string;
  needs: string;
  matrix: string;
  strategy: string;
  runs_on: string;
  if_condition: string | null;
  continue_on_error: number;
  timeout_minutes: number;
  concurrency_group: string | null;
  cancel_in_progress: number;
  /** `single` or `max` (0004). */
  concurrency_queue: string;
  /** Order of entry into the group's queue, from the `concurrency_tickets` counter (0004). */
  concurrency_ticket: number | null;
  status: string;
  conclusion: string | null;
  reason: string | null;
  outputs: string;
  attempt: number;
  runner_id: string | null;
  runner_name: string | null;
  lease_owner: string | null;
  lease_expires_at: number | null;
  cancel_requested: number;
  /** 1 for a stand-in expanded when its needs finish (fields that read `needs`). */
  deferred: number;
  /** The node that last heard from the job's runner (its claim or lock renewal; 0006). */
  node_id: string | null;
  /** When that was (epoch ms; 0006). */
  heard_at: number | null;
  /** The node whose built-in pool launched the job's runner, null for other runners (0006). */
  home_node_id: string | null;
  /** `environment:` name, null without one (0008). */
  environment: string | null;
  /** `environment.url` as written (a literal, or the expression the runner evaluates; 0008). */
  environment_url: string | null;
  /** When the environment's wait timer ends (epoch ms), once it started (0008). */
  environment_wait_until: number | null;
  /** JSON `{kind: 'admin_override', by, at}`: the approval that released the job (0008). */
  environment_approval: string | null;
  created_at: number;
  updated_at: number;
  queued_at: number | null;
  started_at: number | null;
  completed_at: number | null;
};

export type StepsTable = {
  job_id: number;
  number: number;
  name: string;
  status: string;
  conclusion: string | null;
  started_at: number | null;
  completed_at: number | null;
  /** The job attempt that reported the step (a re-run replaces the steps). */
  attempt: number;
};

export type EventsTable = {
  run_id: number;
  /** Position in the run's feed (a per-run counter): the NDJSON cursor. */
  seq: number;
  job_id: number | null;
  type: string;
  body: string;
  created_at: number;
};

export type LogChunksTable = {
  job_id: number;
  seq: number;
  step_number: number | null;
  blob_key: string;
  first_line: number;
  line_count: number;
  bytes: number;
  created_at: number;
  /** Position in the run's feed (the events' counter); null only for rows written before 0002. */
  feed_seq: number | null;
  /** The job attempt the chunk belongs to. */
  attempt: number;
  /** The runner's number for the chunk within its attempt (1, 2, ...); null only before 0002. */
  runner_seq: number | null;
};

export type AnnotationsTable = {
  id: number;
  run_id: number;
  job_id: number;
  level: string;
  message: string;
  title: string | null;
  file: string | null;
  start_line: number | null;
  end_line: number | null;
  start_column: number | null;
  end_column: number | null;
  created_at: number;
};

/** A node's liveness lease (0006): held by one `svc serve` process while it renews it. */
export type NodesTable = {
  id: string;
  /** The holding process's instance id; null once it stopped cleanly. */
  lease_owner: string | null;
  lease_expires_at: number | null;
  started_at: number;
  host: string;
  pid: number;
  version: string;
  url: string | null;
};

export type EngineTables = {
  engine_nodes: NodesTable;
  engine_sequences: SequencesTable;
  engine_runs: RunsTable;
  engine_run_files: RunFilesTable;
  engine_run_values: RunValuesTable;
  engine_jobs: JobsTable;
  engine_steps: StepsTable;
  engine_events: EventsTable;
  engine_log_chunks: LogChunksTable;
  engine_annotations: AnnotationsTable;
};
