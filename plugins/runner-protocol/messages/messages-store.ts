import { nextRunnerId, type RunnerDb, type RunnerExecutor, type RunnerMessagesTable } from '../store/index.js';

/** A message for a runner's listener, kept until the runner acknowledges it (§2.3.3). */
export interface MessageRecord {
  /** Unique across sessions (one counter), so an id is never reused on a session. */
  readonly id: number;
  readonly sessionId: string;
  readonly agentId: number;
  readonly messageType: string;
  /** The plain JSON body; null once delivered. */
  readonly body: string | null;
  /** The job request (engine job id) it is about, if any. */
  readonly requestId: number | null;
  readonly createdAt: number;
  readonly deliveredAt: number | null;
}

export interface NewMessage {
  readonly sessionId: string;
  readonly agentId: number;
  readonly messageType: string;
  readonly body: string;
  readonly requestId: number | null;
}

export interface MessagesStore {
  enqueue(message: NewMessage, now: number, executor?: RunnerExecutor): Promise<MessageRecord>;
  /** The oldest message of the session not yet delivered. */
  nextUndelivered(sessionId: string): Promise<MessageRecord | undefined>;
  /**
   * Claims a message for delivery (a poll of the same session on another node cannot send it too)
   * and forgets its body (unless `keepBody`: a broker job message's body waits for `acquirejob`):
   * a delivered message is never sent again.
   */
  markDelivered(id: number, now: number, keepBody?: boolean): Promise<boolean>;
  /**
   * Takes the body of a delivered broker job message (`RunnerJobRequest`, kept for `acquirejob`)
   * and forgets it: true for exactly one caller, so a job is acquired once.
   */
  takeJobBody(requestId: number, agentId: number): Promise<{ readonly body: string } | { readonly taken: true } | undefined>;
  drop(id: number): Promise<void>;
  /** The runner's DELETE: only its own messages, on the session it names. */
  acknowledge(id: number, sessionId: string, agentId: number): Promise<boolean>;
  /**
   * Drops messages created before `before`: delivered ones never acknowledged, and undelivered ones
   * of runners that never came back (their jobs ended long ago, when the delivery lease lapsed).
   */
  prune(before: number): Promise<void>;
}

function toMessage(row: RunnerMessagesTable): MessageRecord {
  return {
    id: Number(row.id),
    sessionId: row.session_id,
    agentId: Number(row.agent_id),
    messageType: row.message_type,
    body: row.body,
    requestId: row.request_id === null ? null : Number(row.request_id),
    createdAt: Number(row.created_at),
    deliveredAt: row.delivered_at === null ? null : Number(row.delivered_at),
  };
}

export function createMessagesStore(db: RunnerDb): MessagesStore {
  return {
    async enqueue(message, now, executor = db) {
      const row: RunnerMessagesTable = {
        id: await nextRunnerId(executor, 'message'),
        session_id: message.sessionId,
        agent_id: message.agentId,
        message_type: message.messageType,
        body: message.body,
        request_id: message.requestId,
        created_at: now,
        delivered_at: null,
      };
      await executor.insertInto('runner_messages').values(row).execute();
      return toMessage(row);
    },
    async nextUndelivered(sessionId) {
      const row = await db.selectFrom('runner_messages').selectAll().where('session_id', '=', sessionId).where('delivered_at', 'is', null).orderBy('id').limit(1).executeTakeFirst();
      return row ? toMessage(row) : undefined;
    },
    async markDelivered(id, now, keepBody = false) {
      const result = await db
        .updateTable('runner_messages')
        .set(keepBody ? { delivered_at: now } : { delivered_at: now, body: null })
        .where('id', '=', id)
        .where('delivered_at', 'is', null)
        .executeTakeFirst();
      return Number(result.numUpdatedRows) > 0;
    },
    async takeJobBody(requestId, agentId) {
      const row = await db
        .selectFrom('runner_messages')
        .select(['id', 'body'])
        .where('request_id', '=', requestId)
        .where('agent_id', '=', agentId)
        .where('message_type', '=', 'RunnerJobRequest')
        .where('delivered_at', 'is not', null)
        .orderBy('id', 'desc')
        .limit(1)
        .executeTakeFirst();
      if (row === undefined) return undefined;
      if (row.body === null) return { taken: true };
      const result = await db.updateTable('runner_messages').set({ body: null }).where('id', '=', row.id).where('body', 'is not', null).executeTakeFirst();
      return Number(result.numUpdatedRows) > 0 ? { body: row.body } : { taken: true };
    },
    async drop(id) {
      await db.deleteFrom('runner_messages').where('id', '=', id).execute();
    },
    async acknowledge(id, sessionId, agentId) {
      // A broker job message still waiting for `acquirejob` stays (after a BrokerMigration the runner
      // deletes the broker message's id on the legacy queue once it has processed it).
      const result = await db
        .deleteFrom('runner_messages')
        .where('id', '=', id)
        .where('session_id', '=', sessionId)
        .where('agent_id', '=', agentId)
        .where((eb) => eb.or([eb('message_type', '!=', 'RunnerJobRequest'), eb('body', 'is', null)]))
        .executeTakeFirst();
      return Number(result.numDeletedRows) > 0;
    },
    async prune(before) {
      await db.deleteFrom('runner_messages').where('created_at', '<', before).execute();
    },
  };
}
