import type { RunnerDb, RunnerSessionsTable } from '../store/index.js';

/** A listener session (§2.2) as the plugin keeps it. */
export interface SessionRecord {
  /** GUID, lower case. */
  readonly sessionId: string;
  readonly agentId: number;
  readonly poolId: number;
  readonly ownerName: string;
  /** The AES key message bodies are encrypted with. */
  readonly sessionKey: Buffer;
  /** The OAEP hash the key was wrapped with: SHA-256 when true, SHA-1 when false. */
  readonly useFips: boolean;
  readonly createdAt: number;
  readonly expiresAt: number;
}

export type CreateSessionResult = { readonly kind: 'created'; readonly session: SessionRecord } | { readonly kind: 'conflict'; readonly existing: SessionRecord };

export interface SessionsStore {
  /**
   * Opens a session for the runner unless it has a live one (a conflict). An expired session of
   * the runner is replaced, and the messages it had not delivered yet move to the new one.
   */
  create(session: SessionRecord, now: number): Promise<CreateSessionResult>;
  /** The runner's live session with this id, its lease extended to `expiresAt`; undefined when unknown or expired. */
  touch(sessionId: string, agentId: number, now: number, expiresAt: number): Promise<SessionRecord | undefined>;
  /** Ends whatever session the runner has (the broker's `DELETE session` names none); false when it had none. */
  removeOfAgent(agentId: number): Promise<boolean>;
  /** Ends the runner's session; false when it had no session with this id. */
  remove(sessionId: string, agentId: number): Promise<boolean>;
  /** Sessions whose lease ran out before `now`, oldest first. */
  expired(now: number, limit: number): Promise<SessionRecord[]>;
  /** Ends a session if its lease is still out (a poll may have renewed it since it was listed). */
  removeExpired(sessionId: string, now: number): Promise<boolean>;
}

function toSession(row: RunnerSessionsTable): SessionRecord {
  return {
    sessionId: row.session_id,
    agentId: Number(row.agent_id),
    poolId: Number(row.pool_id),
    ownerName: row.owner_name,
    sessionKey: Buffer.from(row.session_key, 'base64'),
    useFips: Number(row.use_fips) === 1,
    createdAt: Number(row.created_at),
    expiresAt: Number(row.expires_at),
  };
}

function toRow(session: SessionRecord): RunnerSessionsTable {
  return {
    session_id: session.sessionId,
    agent_id: session.agentId,
    pool_id: session.poolId,
    owner_name: session.ownerName,
    session_key: session.sessionKey.toString('base64'),
    use_fips: session.useFips ? 1 : 0,
    created_at: session.createdAt,
    expires_at: session.expiresAt,
  };
}

export function createSessionsStore(db: RunnerDb): SessionsStore {
  const liveOf = async (agentId: number, now: number): Promise<SessionRecord | undefined> => {
    const row = await db.selectFrom('runner_sessions').selectAll().where('agent_id', '=', agentId).where('expires_at', '>=', now).executeTakeFirst();
    return row ? toSession(row) : undefined;
  };

  return {
    async create(session, now) {
      try {
        return await db.transaction().execute(async (tx): Promise<CreateSessionResult> => {
          const current = await tx.selectFrom('runner_sessions').selectAll().where('agent_id', '=', session.agentId).executeTakeFirst();
          if (current && Number(current.expires_at) >= now) return { kind: 'conflict', existing: toSession(current) };
          if (current) await tx.deleteFrom('runner_sessions').where('session_id', '=', current.session_id).execute();
          await tx.insertInto('runner_sessions').values(toRow(session)).execute();
          await tx
            .updateTable('runner_messages')
            .set({ session_id: session.sessionId })
            .where('agent_id', '=', session.agentId)
            .where('delivered_at', 'is', null)
            .execute();
          return { kind: 'created', session };
        });
      } catch (error) {
        // Two listeners of one runner at once: the unique agent_id let one of them in.
        const existing = await liveOf(session.agentId, now);
        if (existing) return { kind: 'conflict', existing };
        throw error;
      }
    },
    async touch(sessionId, agentId, now, expiresAt) {
      const row = await db
        .updateTable('runner_sessions')
        .set({ expires_at: expiresAt })
        .where('session_id', '=', sessionId)
        .where('agent_id', '=', agentId)
        .where('expires_at', '>=', now)
        .returningAll()
        .executeTakeFirst();
      return row ? toSession(row) : undefined;
    },
    async remove(sessionId, agentId) {
      const result = await db.deleteFrom('runner_sessions').where('session_id', '=', sessionId).where('agent_id', '=', agentId).executeTakeFirst();
      return Number(result.numDeletedRows) > 0;
    },
    async removeOfAgent(agentId) {
      const result = await db.deleteFrom('runner_sessions').where('agent_id', '=', agentId).executeTakeFirst();
      return Number(result.numDeletedRows) > 0;
    },
    async expired(now, limit) {
      const rows = await db.selectFrom('runner_sessions').selectAll().where('expires_at', '<', now).orderBy('expires_at').limit(limit).execute();
      return rows.map(toSession);
    },
    async removeExpired(sessionId, now) {
      const result = await db.deleteFrom('runner_sessions').where('session_id', '=', sessionId).where('expires_at', '<', now).executeTakeFirst();
      return Number(result.numDeletedRows) > 0;
    },
  };
}
