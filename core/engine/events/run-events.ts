import type { Status } from '../model/statuses.js';

/**
 * The run event feed (`GET /api/v1/runs/{run_id}/events.ndjson`), discriminated by `type`
 * exactly as the spec's NDJSON table names them. Status events are rows first (engine_events),
 * so a reconnecting reader gets them again in its snapshot; `log` lines come from the log chunks.
 */
export type RunEvent =
  | { readonly type: 'run_accepted'; readonly run_id: number; readonly queued_jobs: number }
  | { readonly type: 'run_status'; readonly run_id: number; readonly status: Status; readonly reason?: string }
  | { readonly type: 'job_status'; readonly run_id: number; readonly job_id: number; readonly status: Status; readonly reason?: string }
  | { readonly type: 'log'; readonly run_id: number; readonly job_id: number; readonly line: string }
  | {
      readonly type: 'annotation';
      readonly run_id: number;
      readonly job_id: number;
      readonly level: 'notice' | 'warning' | 'error';
      readonly message: string;
      readonly title?: string;
      readonly file?: string;
      readonly line?: number;
      readonly end_line?: number;
      readonly col?: number;
      readonly end_col?: number;
    }
  | { readonly type: 'job_completed'; readonly run_id: number; readonly job_id: number; readonly status: Status; readonly outputs: Readonly<Record<string, string>> }
  | { readonly type: 'check_run_created'; readonly run_id: number };

export type RunEventType = RunEvent['type'];

/** Notifier channel on which a run's new events are announced (payload: the run id). */
export const RUN_EVENTS_CHANNEL = 'engine.run-events';
/** Notifier channel on which newly queued jobs are announced (runners waiting re-read the queue). */
export const JOBS_QUEUED_CHANNEL = 'engine.jobs-queued';
/** Notifier channel asking schedulers to advance a run (payload: the run id). */
export const RUN_ADVANCE_CHANNEL = 'engine.run-advance';
