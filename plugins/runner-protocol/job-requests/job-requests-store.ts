import { TASK_RESULTS, type TaskResultName } from '../../../core/protocol/index.js';
import type { RunnerDb, RunnerExecutor, RunnerJobRequestsTable } from '../store/index.js';

/** A job handed to a runner over the legacy flow; `requestId` is the engine's job id (§3.1 `requestId`). */
export interface JobRequestRecord {
  readonly requestId: number;
  readonly attempt: number;
  readonly agentId: number;
  readonly runId: number;
  /** The message's `jobId` GUID (what JobCancellation names). */
  readonly jobGuid: string;
  readonly planId: string;
  readonly messageId: number;
  /** First successful lock renewal: from then on the runner runs the job. */
  readonly acceptedAt: number | null;
  readonly cancelSentAt: number | null;
  readonly finishedAt: number | null;
  readonly result: TaskResultName | null;
  readonly createdAt: number;
}

export type NewJobRequest = Omit<JobRequestRecord, 'acceptedAt' | 'cancelSentAt' | 'finishedAt' | 'result'>;

export interface JobRequestsStore {
  /** Records a job handed to a runner, replacing the request of an earlier attempt of the same job. */
  record(request: NewJobRequest, executor?: RunnerExecutor): Promise<void>;
  get(requestId: number): Promise<JobRequestRecord | undefined>;
  /** The runner's requests not yet seen finished (at most one: a runner gets one job at a time). */
  unfinished(agentId: number): Promise<JobRequestRecord[]>;
  /** Whether the runner was ever handed a job (an ephemeral runner takes one). */
  hasAny(agentId: number): Promise<boolean>;
  /** Notes the first renewal; false when it was noted before. */
  markAccepted(requestId: number, attempt: number, now: number): Promise<boolean>;
  /** Claims sending the cancellation: true for exactly one caller. */
  markCancelSent(requestId: number, attempt: number, now: number): Promise<boolean>;
  markFinished(requestId: number, attempt: number, now: number, result: TaskResultName | null): Promise<void>;
  /** Drops finished requests older than `before`. */
  prune(before: number): Promise<void>;
}

function toResult(value: string | null): TaskResultName | null {
  return value !== null && (TASK_RESULTS as readonly string[]).includes(value) ? (value as TaskResultName) : null;
}

function toRequest(row: RunnerJobRequestsTable): JobRequestRecord {
  const optional = (value: number | null) => (value === null ? null : Number(value));
  return {
    requestId: Number(row.request_id),
    attempt: Number(row.attempt),
    agentId: Number(row.agent_id),
    runId: Number(row.run_id),
    jobGuid: row.job_guid,
    planId: row.plan_id,
    messageId: Number(row.message_id),
    acceptedAt: optional(row.accepted_at),
    cancelSentAt: optional(row.cancel_sent_at),
    finishedAt: optional(row.finished_at),
    result: toResult(row.result),
    createdAt: Number(row.created_at),
  };
}

export function createJobRequestsStore(db: RunnerDb): JobRequestsStore {
  return {
    async record(request, executor = db) {
      await executor.deleteFrom('runner_job_requests').where('request_id', '=', request.requestId).execute();
      await executor
        .insertInto('runner_job_requests')
        .values({
          request_id: request.requestId,
          attempt: request.attempt,
          agent_id: request.agentId,
          run_id: request.runId,
          job_guid: request.jobGuid,
          plan_id: request.planId,
          message_id: request.messageId,
          accepted_at: null,
          cancel_sent_at: null,
          finished_at: null,
          result: null,
          created_at: request.createdAt,
        })
        .execute();
    },
    async get(requestId) {
      const row = await db.selectFrom('runner_job_requests').selectAll().where('request_id', '=', requestId).executeTakeFirst();
      return row ? toRequest(row) : undefined;
    },
    async unfinished(agentId) {
      const rows = await db.selectFrom('runner_job_requests').selectAll().where('agent_id', '=', agentId).where('finished_at', 'is', null).orderBy('created_at').execute();
      return rows.map(toRequest);
    },
    async hasAny(agentId) {
      const row = await db.selectFrom('runner_job_requests').select('request_id').where('agent_id', '=', agentId).limit(1).executeTakeFirst();
      return row !== undefined;
    },
    async markAccepted(requestId, attempt, now) {
      const result = await db
        .updateTable('runner_job_requests')
        .set({ accepted_at: now })
        .where('request_id', '=', requestId)
        .where('attempt', '=', attempt)
        .where('accepted_at', 'is', null)
        .executeTakeFirst();
      return Number(result.numUpdatedRows) > 0;
    },
    async markCancelSent(requestId, attempt, now) {
      const result = await db
        .updateTable('runner_job_requests')
        .set({ cancel_sent_at: now })
        .where('request_id', '=', requestId)
        .where('attempt', '=', attempt)
        .where('cancel_sent_at', 'is', null)
        .executeTakeFirst();
      return Number(result.numUpdatedRows) > 0;
    },
    async markFinished(requestId, attempt, now, result) {
      await db
        .updateTable('runner_job_requests')
        .set({ finished_at: now, result })
        .where('request_id', '=', requestId)
        .where('attempt', '=', attempt)
        .where('finished_at', 'is', null)
        .execute();
    },
    async prune(before) {
      await db.deleteFrom('runner_job_requests').where('finished_at', '<', before).execute();
    },
  };
}
