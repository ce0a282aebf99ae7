/**
 * A job whose Worker crashed ends from its job record (§2.8): the Listener reads the timeline,
 * marks the job record completed/failed with the crash as an issue and PATCHes it back; no
 * `JobCompleted` follows. A healthy Worker PATCHes the same completed job record just before its
 * `JobCompleted` (which carries the outputs), so the record alone cannot end the job at once:
 * the job is completed from the record only if no `JobCompleted` came within a grace period
 * that covers the runner's `JobCompleted` retries (5 attempts, 5 s apart).
 *
 * Before completing, `beforeComplete` stores what the job log has (job-log.ts), as `JobCompleted` does.
 *
 * The timer lives in this process: if the node stops first, the engine's lease sweep still ends
 * the job (as lost) once the lock lapses, so a lost timer costs latency, never the job.
 */
import type { Engine } from '../../../core/engine/index.js';
import type { TaskResultName } from '../../../core/protocol/index.js';
import { completionOf } from '../job-requests/index.js';

export const JOB_RECORD_COMPLETION_GRACE_MS = 30_000;

export interface JobRecordCompletion {
  /** The job record says the job is over with `result`; ends the engine job after the grace unless the Worker does. */
  recordCompleted(job: { readonly id: number; readonly attempt: number; readonly runnerId: string }, result: TaskResultName): void;
}

/** The job about to be completed from its record. */
export interface RecordCompletedJob {
  readonly runId: number;
  readonly id: number;
  readonly attempt: number;
  readonly runnerId: string;
}

export function createJobRecordCompletion(
  engine: Engine,
  graceMs = JOB_RECORD_COMPLETION_GRACE_MS,
  onError: (error: unknown) => void = () => undefined,
  beforeComplete: (job: RecordCompletedJob) => Promise<void> = async () => undefined,
): JobRecordCompletion {
  const pending = new Set<string>();
  return {
    recordCompleted(job, result) {
      const key = `${job.id}:${job.attempt}`;
      if (pending.has(key)) return;
      pending.add(key);
      const timer = setTimeout(() => {
        pending.delete(key);
        void (async () => {
          const now = await engine.getJob(job.id);
          if (now === undefined || now.attempt !== job.attempt || now.status !== 'in_progress' || now.runnerId !== job.runnerId) return;
          await beforeComplete({ runId: now.runId, id: job.id, attempt: job.attempt, runnerId: job.runnerId });
          const { outcome, reason } = completionOf(result);
          await engine.completeJob(job.id, job.runnerId, { outcome, outputs: {}, ...(reason === undefined ? {} : { reason }) });
        })().catch(onError);
      }, graceMs);
      timer.unref();
    },
  };
}
