/**
 * Row types of the runner-protocol tables, as Kysely sees them. Times are epoch milliseconds,
 * flags 0/1 integers (the same on SQLite and PostgreSQL), JSON is text.
 */
export type RunnerSequencesTable = {
  name: string;
  value: number;
};

/** Runner groups ("agent pools" on the wire). */
export type RunnerPoolsTable = {
  id: number;
  name: string;
  /** 1 for the pool the runner picks by default (`isInternal`). */
  is_internal: number;
  /** 1 for the built-in pool: the runner leaves hosted pools out of its group choice. */
  is_hosted: number;
};

/** Registered runners ("agents" on the wire). */
export type RunnerAgentsTable = {
  id: number;
  pool_id: number;
  name: string;
  /** Lower-cased name: names are unique per pool ignoring case. */
  name_key: string;
  version: string;
  os_description: string;
  /** JSON array of `{name, type}` with type `system` or `user`. */
  labels: string;
  /** The runner's RSA public key, base64 big-endian (TaskAgentPublicKey). */
  public_exponent: string;
  public_modulus: string;
  /** OAuth client id (GUID); a new one on every replace, so old access tokens die with it. */
  client_id: string;
  /** The token URL handed out at registration; the client assertion's `aud` must equal it. */
  authorization_url: string;
  ephemeral: number;
  disable_update: number;
  /** `offline`, `online` or `busy` (sessions move it). */
  status: string;
  /** The `--url` the runner was configured with (`http://host/owner/repo`), or null (JIT). */
  scope_url: string | null;
  /** The node whose built-in pool minted it (0004), null for every other runner. */
  home_node: string | null;
  created_at: number;
  updated_at: number;
};

/** `jti`s of accepted client assertions, kept until the assertion expires (no replay). */
export type RunnerAssertionJtisTable = {
  jti: string;
  expires_at: number;
};

/** Legacy listener sessions (§2.2): at most one per runner; a poll renews `expires_at`. */
export type RunnerSessionsTable = {
  /** GUID. */
  session_id: string;
  agent_id: number;
  pool_id: number;
  owner_name: string;
  /** The session's AES key, base64 (handed to the runner RSA-wrapped). */
  session_key: string;
  /** 1: the key is wrapped with OAEP-SHA256, 0: OAEP-SHA1 (`useFipsEncryption`). */
  use_fips: number;
  created_at: number;
  /** A listener that stops polling loses its session at this time. */
  expires_at: number;
};

/** Messages for a runner's listener (§2.3): kept until acknowledged (DELETE). */
export type RunnerMessagesTable = {
  id: number;
  /** The session it is (to be) delivered on; moved to the runner's next session while undelivered. */
  session_id: string;
  agent_id: number;
  message_type: string;
  /** The plain JSON body until it is delivered, then null (delivered messages are never re-sent). */
  body: string | null;
  /** The job request (engine job id) the message is about, if any. */
  request_id: number | null;
  created_at: number;
  delivered_at: number | null;
};

/** Jobs handed to runners over the legacy flow (§2.6-§2.8); `request_id` is the engine's job id. */
export type RunnerJobRequestsTable = {
  request_id: number;
  /** The job's attempt the request is for (a re-run reuses the job row). */
  attempt: number;
  agent_id: number;
  run_id: number;
  /** The job message's `jobId` (timeline record GUID): what a JobCancellation names. */
  job_guid: string;
  plan_id: string;
  message_id: number;
  /** First lock renewal: the runner accepted the job (§2.3.3). */
  accepted_at: number | null;
  cancel_sent_at: number | null;
  finished_at: number | null;
  /** TaskResult name once finished. */
  result: string | null;
  created_at: number;
};

export type RunnerTables = {
  runner_sequences: RunnerSequencesTable;
  runner_pools: RunnerPoolsTable;
  runner_agents: RunnerAgentsTable;
  runner_assertion_jtis: RunnerAssertionJtisTable;
  runner_sessions: RunnerSessionsTable;
  runner_messages: RunnerMessagesTable;
  runner_job_requests: RunnerJobRequestsTable;
};
