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
  created_at: number;
  updated_at: number;
};

/** `jti`s of accepted client assertions, kept until the assertion expires (no replay). */
export type RunnerAssertionJtisTable = {
  jti: string;
  expires_at: number;
};

export type RunnerTables = {
  runner_sequences: RunnerSequencesTable;
  runner_pools: RunnerPoolsTable;
  runner_agents: RunnerAgentsTable;
  runner_assertion_jtis: RunnerAssertionJtisTable;
};
